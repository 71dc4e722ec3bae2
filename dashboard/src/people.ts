// A person's session with the gateway: sign-in (e-mail and password) answers with an HttpOnly
// cookie the page never sees, and a CSRF token the page keeps in memory only and sends with every
// request (X-CSRF-Token). Invitation and password-reset links carry their token in the URL
// fragment (never sent to the server); it is read once and removed from the address bar.

export interface PersonSession {
  email: string;
  workspace: string;
  role: string;
  csrfToken: string;
  /** Every workspace the person belongs to (from GET /auth/session). */
  workspaces?: { slug: string; name: string; role: string }[];
}

/** The signed-in person of this browser (the cookie's session), or null. */
export async function currentSession(): Promise<PersonSession | null> {
  const res = await fetch('/auth/session', { credentials: 'same-origin' });
  return res.ok ? ((await res.json()) as PersonSession) : null;
}

/** `secondFactor`: the e-mail and password were right and the person has two-factor on: send again with `code`. */
export type SignInAnswer = { ok: true; session: PersonSession } | { ok: false; status: number; message: string; secondFactor: boolean };

export async function signIn(email: string, password: string, lang: string, code?: string): Promise<SignInAnswer> {
  const res = await fetch('/auth/sign-in', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json', 'Accept-Language': lang }, body: JSON.stringify({ email, password, ...(code ? { code } : {}) }) });
  const body = (await res.json().catch(() => ({}))) as PersonSession & { result?: { message?: string }; secondFactorRequired?: boolean };
  return res.ok ? { ok: true, session: body } : { ok: false, status: res.status, message: body.result?.message ?? res.statusText, secondFactor: body.secondFactorRequired === true };
}

export async function signOut(csrfToken: string): Promise<void> {
  await fetch('/auth/sign-out', { method: 'POST', credentials: 'same-origin', headers: { 'X-CSRF-Token': csrfToken } }).catch(() => undefined);
}

/** Moves this session to another of the person's workspaces; false when refused. */
export async function chooseWorkspace(slug: string, csrfToken: string): Promise<boolean> {
  const res = await fetch('/auth/workspace', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken }, body: JSON.stringify({ workspace: slug }) });
  return res.ok;
}

/** The token of an `#invitation=` or `#reset=` link, taken out of the address bar; else null. */
export function takeLinkToken(kind: 'invitation' | 'reset'): string | null {
  const m = new RegExp(`(?:^#|&)${kind}=([^&]+)`).exec(window.location.hash);
  if (!m) return null;
  history.replaceState(null, '', window.location.pathname + window.location.search);
  return decodeURIComponent(m[1]!);
}

interface Payload {
  result?: { successful: boolean; message?: string | null };
  errors?: { path: string[]; message: string }[];
}

/** A GraphQL call that needs no sign-in (accept an invitation, reset a password): the payload of `field`. */
export async function anonymous<T = Payload>(query: string, variables: Record<string, unknown>, field: string, lang: string): Promise<T | null> {
  const res = await fetch('/graphql', { method: 'POST', credentials: 'omit', headers: { 'Content-Type': 'application/json', 'Accept-Language': lang }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json().catch(() => null)) as { data?: Record<string, T> } | null;
  return body?.data?.[field] ?? null;
}
