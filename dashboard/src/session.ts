// The access token lives in sessionStorage for this tab only. A sign-in link carries it in the
// URL fragment (never sent to the server); it is read once and removed from the address bar, on
// load and when a link is pasted into a tab already open on the dashboard (hashchange).
const KEY = 'dashboard.token';
/** Set once the gateway accepted the token: a later refusal means it expired or was revoked. */
const ACCEPTED = 'dashboard.token.accepted';

/** The token of a sign-in link in the address bar, now stored and gone from the URL; else null. */
export function takeTokenFromLocation(): string | null {
  const m = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  if (!m) return null;
  const token = decodeURIComponent(m[1]!);
  setToken(token);
  history.replaceState(null, '', window.location.pathname + window.location.search);
  return token;
}

export const getToken = (): string | null => sessionStorage.getItem(KEY);
export function setToken(token: string): void {
  sessionStorage.setItem(KEY, token);
  sessionStorage.removeItem(ACCEPTED);
}
export function clearToken(): void {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(ACCEPTED);
}
export const markTokenAccepted = (): void => sessionStorage.setItem(ACCEPTED, '1');
export const wasTokenAccepted = (): boolean => sessionStorage.getItem(ACCEPTED) === '1';
