// Sign-in, the signed-in shell (navigation, language, sign-out) and the screens.
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Provider, useQuery } from 'urql';
import { createGraphQLClient } from './client.ts';
import { clearToken, getToken, setToken } from './session.ts';
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
import { Link } from './ui.tsx';
import { graphql } from './graphql.ts';

const WHO_AM_I = graphql(`
  query WhoAmI {
    workspace { slug name mode }
    workspaces { slug name }
    viewerRole
  }
`);

export interface Viewer {
  support: boolean;
  /** The workspace shown: the token's own, or the one support staff picked. */
  slug: string | null;
  /** The token's role: owner, developer, operator, viewer or support. */
  role: string | null;
}

export function App() {
  const [lang, setLang] = useState<Lang>(initialLang);
  const [token, setTok] = useState(getToken());
  const t = LABELS[lang];
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = t.title;
    localStorage.setItem('dashboard.lang', lang);
  }, [lang, t]);
  const signOut = () => {
    clearToken();
    setTok(null);
  };
  return (
    <LangContext.Provider value={{ lang, t }}>
      {token ? <SignedIn key={token + lang} token={token} lang={lang} setLang={setLang} signOut={signOut} /> : <SignIn onToken={(v) => (setToken(v), setTok(v))} />}
    </LangContext.Provider>
  );
}

function SignIn({ onToken }: { onToken: (token: string) => void }) {
  const { t } = useT();
  const [value, setValue] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) onToken(value.trim());
  };
  return (
    <main className="signin">
      <h1>{t.title}</h1>
      <form onSubmit={submit} className="card">
        <label>
          {t.token}
          <input name="token" type="password" autoComplete="off" required autoFocus value={value} onChange={(e) => setValue(e.target.value)} />
        </label>
        <p>{t.signInHelp}</p>
        {new URLSearchParams(location.search).has('invalid') && <p className="error" role="alert">{t.badToken}</p>}
        <button className="primary" type="submit">{t.signIn}</button>
      </form>
    </main>
  );
}

function SignedIn({ token, lang, setLang, signOut }: { token: string; lang: Lang; setLang: (l: Lang) => void; signOut: () => void }) {
  const { client, dispose } = useMemo(() => createGraphQLClient(token, lang), [token, lang]);
  useEffect(() => dispose, [dispose]);
  return (
    <Provider value={client}>
      <Shell lang={lang} setLang={setLang} signOut={signOut} />
    </Provider>
  );
}

function Shell({ lang, setLang, signOut }: { lang: Lang; setLang: (l: Lang) => void; signOut: () => void }) {
  const { t } = useT();
  const path = usePath();
  const [{ data, error, fetching }] = useQuery({ query: WHO_AM_I, requestPolicy: 'network-only' });
  const [picked, setPicked] = useState<string | null>(null);
  const unauthenticated = error?.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED') || error?.response?.status === 401;
  useEffect(() => {
    if (unauthenticated) signOut();
  }, [unauthenticated, signOut]);
  if (fetching && !data) return <main aria-busy="true">…</main>;
  if (error && !data) return <main className="error" role="alert">{error.message}</main>;
  const workspace = data?.workspace;
  const support = !workspace;
  const workspaces = data?.workspaces ?? [];
  const viewer: Viewer = { support, slug: support ? (picked ?? workspaces[0]?.slug ?? null) : workspace.slug, role: data?.viewerRole ?? null };
  const screens = [...SCREENS, ...(viewer.role === 'owner' || support ? TEAM_SCREENS : [])];
  const [screen, arg] = path.split('/');
  return (
    <>
      <header>
        <strong>{support ? t.support : `${workspace.name} (${workspace.mode})`}</strong>
        <nav aria-label={t.title}>
          {screens.map((name) => <Link key={name} to={name} current={(screen || 'overview') === name}>{t[name]}</Link>)}
        </nav>
        <SearchBox key={screen === 'search' ? arg : ''} initial={screen === 'search' && arg ? decodeURIComponent(arg) : ''} />
        <span className="spacer" />
        {support && (
          <label>
            {t.workspace}
            <select value={viewer.slug ?? ''} onChange={(e) => setPicked(e.target.value)}>
              {workspaces.map((w) => <option key={w.slug} value={w.slug ?? ''}>{w.name} ({w.slug})</option>)}
            </select>
          </label>
        )}
        <label>
          {t.language}
          <select value={lang} onChange={(e) => setLang(e.target.value as Lang)}>
            <option value="tr">Türkçe</option>
            <option value="en">English</option>
          </select>
        </label>
        <button type="button" onClick={signOut}>{t.signOut}</button>
      </header>
      <main>
        <Screen screen={screen || 'overview'} arg={arg ? decodeURIComponent(arg) : undefined} viewer={viewer} />
      </main>
    </>
  );
}

/** The screens in the navigation, in order; each name is also its path and its label's key. */
const SCREENS = ['overview', 'payments', 'orders', 'subscriptions', 'links', 'products', 'customers', 'webhooks', 'settings'] as const;
/** Shown to owners and support staff only: the workspace's tokens and its audit trail. */
const TEAM_SCREENS = ['tokens', 'audit'] as const;

function Screen({ screen, arg, viewer }: { screen: string; arg?: string; viewer: Viewer }) {
  switch (screen) {
    case 'links':
      if (arg === 'new' && !viewer.support) return <NewLink />;
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
    case 'search':
      return <SearchPage key={arg} q={arg ?? ''} viewer={viewer} />;
    case 'customers':
      return arg ? <CustomerDetail token={arg} viewer={viewer} /> : <CustomersPage viewer={viewer} />;
    case 'tokens':
      return <TokensPage viewer={viewer} />;
    case 'audit':
      return <AuditPage viewer={viewer} />;
    case 'overview':
      return <OverviewPage viewer={viewer} />;
    default:
      return arg ? <PaymentDetail token={arg} viewer={viewer} /> : <PaymentsPage viewer={viewer} />;
  }
}
