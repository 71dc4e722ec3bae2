// Sign-in (a person's e-mail and password, or a token with why the last one was refused), the
// invitation and password-reset screens, the signed-in shell (navigation behind a menu
// button on phones, language, sign-out) and the screens.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Provider, useQuery } from 'urql';
import { createGraphQLClient, isUnauthenticated, type Auth } from './client.ts';
import { currentSession, signOut as personSignOut, takeLinkToken } from './people.ts';
import { AcceptInvitationPage, ResetPasswordPage, SignInPage, type Refusal } from './people/SignInPage.tsx';
import { MembersPage } from './team/MembersPage.tsx';
import { WorkspaceSwitch } from './people/WorkspaceSwitch.tsx';
import { SessionsPage } from './team/SessionsPage.tsx';
import { SecurityPage } from './people/SecurityPage.tsx';
import { StepUpProvider } from './people/StepUp.tsx';
import { clearToken, getToken, markTokenAccepted, setToken, takeTokenFromLocation, wasTokenAccepted } from './session.ts';
import { LABELS, LangContext, initialLang, useT, type Lang } from './i18n.ts';
import { usePath } from './router.ts';
import { PaymentsPage } from './payments/PaymentsPage.tsx';
import { PaymentDetail } from './payments/PaymentDetail.tsx';
import { WebhooksPage } from './webhooks/WebhooksPage.tsx';
import { LinksPage } from './links/LinksPage.tsx';
import { LinkDetail } from './links/LinkDetail.tsx';
import { NewLink } from './links/NewLink.tsx';
import { ProductsPage } from './products/ProductsPage.tsx';
import { OrdersPage } from './orders/OrdersPage.tsx';
import { OrderDetail } from './orders/OrderDetail.tsx';
import { SubscriptionsPage } from './subscriptions/SubscriptionsPage.tsx';
import { SubscriptionDetail } from './subscriptions/SubscriptionDetail.tsx';
import { SettingsPage } from './settings/SettingsPage.tsx';
import { SearchBox } from './search/SearchBox.tsx';
import { SearchPage } from './search/SearchPage.tsx';
import { CustomersPage } from './customers/CustomersPage.tsx';
import { CustomerDetail } from './customers/CustomerDetail.tsx';
import { TokensPage } from './team/TokensPage.tsx';
import { AuditPage } from './team/AuditPage.tsx';
import { OverviewPage } from './overview/OverviewPage.tsx';
import { RiskPage } from './risk/RiskPage.tsx';
import { Link } from './ui.tsx';
import { ErrorState, Loading } from './kit/states.tsx';
import { useMenu } from './kit/useMenu.ts';
import { KitGallery } from './kit/KitGallery.tsx';
import { canFrom, CanProvider } from './kit/can.ts';
import type { Viewer } from './viewer.ts';
import { graphql } from './graphql.ts';

const WHO_AM_I = graphql(`
  query WhoAmI {
    workspace { slug name mode timeZone }
    workspaces { slug name timeZone }
    viewerRole
    viewerPermissions
    myTwoFactor { enabled required }
  }
`);

export function App() {
  const [lang, setLang] = useState<Lang>(initialLang);
  const [auth, setAuth] = useState<Auth | null | 'checking'>(() => {
    const token = getToken();
    return token ? { token } : 'checking';
  });
  /** An invitation or password-reset link opened in this tab (its token, out of the address bar). */
  const [link] = useState(() => ({ invitation: takeLinkToken('invitation'), reset: takeLinkToken('reset') }));
  const [linkDone, setLinkDone] = useState<string | null>(null);
  /** Why the sign-in form is shown: the token was never accepted, or it stopped being accepted. */
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const t = LABELS[lang];
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = t.title;
    localStorage.setItem('dashboard.lang', lang);
  }, [lang, t]);
  // No token in this tab: the browser may hold a person's session cookie.
  useEffect(() => {
    if (auth !== 'checking') return;
    void currentSession().then((s) => setAuth(s ? { csrfToken: s.csrfToken } : null), () => setAuth(null));
  }, [auth]);
  // A sign-in link pasted into this tab changes only the fragment: no reload, so read it here.
  useEffect(() => {
    const onHash = () => {
      const pasted = takeTokenFromLocation();
      if (!pasted) return;
      setRefusal(null);
      setAuth({ token: pasted });
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  /** The tab last used a token: the sign-in page opens the token form. */
  const [tokenUsed, setTokenUsed] = useState(false);
  const signOut = useCallback(() => {
    if (auth && auth !== 'checking' && 'csrfToken' in auth) void personSignOut(auth.csrfToken);
    setTokenUsed(Boolean(auth && auth !== 'checking' && 'token' in auth));
    clearToken();
    setRefusal(null);
    setAuth(null);
  }, [auth]);
  const refused = useCallback(() => {
    if (getToken()) {
      setRefusal(wasTokenAccepted() ? 'expired' : 'invalid');
      setTokenUsed(true);
    }
    clearToken();
    setAuth(null);
  }, []);
  const tokenSignIn = (v: string) => {
    setToken(v);
    setRefusal(null);
    setAuth({ token: v });
  };
  const linkPending = !linkDone && (link.invitation || link.reset);
  let page;
  if (linkPending && link.invitation) page = <AcceptInvitationPage token={link.invitation} done={setLinkDone} />;
  else if (linkPending && link.reset) page = <ResetPasswordPage token={link.reset} done={setLinkDone} />;
  else if (auth === 'checking') page = <main><Loading /></main>;
  else if (auth) page = <SignedIn key={JSON.stringify(auth) + lang} auth={auth} lang={lang} setLang={setLang} signOut={signOut} refused={refused} />;
  else page = <SignInPage onPerson={(s) => setAuth({ csrfToken: s.csrfToken })} onToken={tokenSignIn} refusal={refusal} tokenOpen={tokenUsed} notice={linkDone} />;
  return <LangContext.Provider value={{ lang, t }}>{page}</LangContext.Provider>;
}

function SignedIn({ auth, lang, setLang, signOut, refused }: { auth: Auth; lang: Lang; setLang: (l: Lang) => void; signOut: () => void; refused: () => void }) {
  // Any answer refusing the token or session (this query or a later one: revoked or expired meanwhile) signs out with the reason.
  const { client, dispose } = useMemo(() => createGraphQLClient(auth, lang, refused), [auth, lang, refused]);
  useEffect(() => dispose, [dispose]);
  return (
    <Provider value={client}>
      <Shell lang={lang} setLang={setLang} signOut={signOut} csrfToken={'csrfToken' in auth ? auth.csrfToken : null} />
    </Provider>
  );
}

function Shell({ lang, setLang, signOut, csrfToken }: { lang: Lang; setLang: (l: Lang) => void; signOut: () => void; csrfToken: string | null }) {
  const person = csrfToken !== null;
  const { t } = useT();
  const path = usePath();
  const [{ data, error, fetching }, reexecute] = useQuery({ query: WHO_AM_I, requestPolicy: 'network-only' });
  const [picked, setPicked] = useState<string | null>(null);
  const menu = useMenu(path);
  const can = useMemo(() => canFrom(data?.viewerPermissions), [data]);
  useEffect(() => {
    if (data) markTokenAccepted();
  }, [data]);
  // A refused token is signing out (the client's onUnauthenticated): keep the loading state meanwhile.
  if ((fetching && !data) || isUnauthenticated(error)) return <main><Loading /></main>;
  if (error && !data) return <main><ErrorState message={error.response ? error.message : t.kitServerDown} onRetry={() => reexecute({ requestPolicy: 'network-only' })} /></main>;
  const workspace = data?.workspace;
  const support = !workspace;
  const workspaces = data?.workspaces ?? [];
  const slug = support ? (picked ?? workspaces[0]?.slug ?? null) : workspace.slug;
  const timeZone = (support ? workspaces.find((w) => w.slug === slug)?.timeZone : workspace.timeZone) ?? null;
  const viewer: Viewer = { support, slug, role: data?.viewerRole ?? null, timeZone, can };
  // A workspace that requires two-factor of a person without it: only their own screens until they set it up.
  const mustEnrol = !!data?.myTwoFactor?.required && !data.myTwoFactor.enabled;
  const screens = mustEnrol
    ? (['security', 'sessions'] as const)
    : [
        ...SCREENS,
        ...(viewer.role === 'owner' ? ['members' as const] : []),
        ...(viewer.role === 'owner' || support ? TEAM_SCREENS : can('createAccessToken') ? ['tokens' as const] : []),
        ...(person ? PERSON_SCREENS : []),
      ];
  const [path0, arg] = path.split('/');
  const screen = mustEnrol && path0 !== 'sessions' ? 'security' : path0;
  return (
    <>
      <header>
        <strong>{support ? t.support : `${workspace.name} (${workspace.mode})`}</strong>
        <button type="button" ref={menu.button} className="menu-button" aria-expanded={menu.open} aria-controls="shell-nav shell-tools" onClick={menu.toggle}>{t.kitMenu}</button>
        <nav id="shell-nav" aria-label={t.kitNavigation} className={menu.open ? 'collapsible open' : 'collapsible'}>
          {screens.map((name) => <Link key={name} to={name} current={(screen || 'overview') === name}>{t[name]}</Link>)}
        </nav>
        <SearchBox key={screen === 'search' ? arg : ''} initial={screen === 'search' && arg ? decodeURIComponent(arg) : ''} />
        <span className="spacer" />
        <div id="shell-tools" className={menu.open ? 'collapsible tools open' : 'collapsible tools'}>
          {support && (
            <label>
              {t.workspace}
              <select value={viewer.slug ?? ''} onChange={(e) => setPicked(e.target.value)}>
                {workspaces.map((w) => <option key={w.slug} value={w.slug ?? ''}>{w.name} ({w.slug})</option>)}
              </select>
            </label>
          )}
          {csrfToken && <WorkspaceSwitch csrfToken={csrfToken} />}
          <label>
            {t.language}
            <select value={lang} onChange={(e) => setLang(e.target.value as Lang)}>
              <option value="tr">Türkçe</option>
              <option value="en">English</option>
            </select>
          </label>
          <button type="button" onClick={signOut}>{t.signOut}</button>
        </div>
      </header>
      <main>
        <CanProvider value={can}>
          <StepUpProvider>
            {screen === 'security'
              ? <SecurityPage viewer={viewer} onEnrolled={() => reexecute({ requestPolicy: 'network-only' })} />
              : <Screen screen={screen || 'overview'} arg={arg ? decodeURIComponent(arg) : undefined} viewer={viewer} />}
          </StepUpProvider>
        </CanProvider>
      </main>
    </>
  );
}

/** The screens in the navigation, in order; each name is also its path and its label's key. */
const SCREENS = ['overview', 'payments', 'orders', 'subscriptions', 'links', 'products', 'customers', 'risk', 'webhooks', 'settings'] as const;
/** Shown to owners and support staff: the workspace's tokens and its audit trail (tokens also to the roles that may create some). */
const TEAM_SCREENS = ['tokens', 'audit'] as const;
/** A signed-in person's own: their security (two-factor, password) and sessions. */
const PERSON_SCREENS = ['security', 'sessions'] as const;

function Screen({ screen, arg, viewer }: { screen: string; arg?: string; viewer: Viewer }) {
  switch (screen) {
    case 'links':
      // The form itself says when the role may not create links (support staff and viewers too).
      if (arg === 'new') return <NewLink />;
      return arg ? <LinkDetail token={arg} viewer={viewer} /> : <LinksPage viewer={viewer} />;
    case 'orders':
      return arg ? <OrderDetail token={arg} viewer={viewer} /> : <OrdersPage viewer={viewer} />;
    case 'subscriptions':
      return arg ? <SubscriptionDetail token={arg} viewer={viewer} /> : <SubscriptionsPage viewer={viewer} />;
    case 'products':
      return <ProductsPage viewer={viewer} />;
    case 'settings':
      return <SettingsPage viewer={viewer} />;
    case 'webhooks':
      return <WebhooksPage viewer={viewer} />;
    case 'risk':
      return <RiskPage viewer={viewer} />;
    case 'search':
      return <SearchPage key={arg} q={arg ?? ''} viewer={viewer} />;
    case 'customers':
      return arg ? <CustomerDetail token={arg} viewer={viewer} /> : <CustomersPage viewer={viewer} />;
    case 'tokens':
      return <TokensPage viewer={viewer} />;
    case 'members':
      return <MembersPage viewer={viewer} />;
    case 'sessions':
      return <SessionsPage viewer={viewer} />;
    case 'audit':
      return <AuditPage viewer={viewer} />;
    case 'overview':
      return <OverviewPage viewer={viewer} />;
    case 'kit':
      return <KitGallery />;
    default:
      return arg ? <PaymentDetail token={arg} viewer={viewer} /> : <PaymentsPage viewer={viewer} />;
  }
}
