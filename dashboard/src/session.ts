// The access token lives in sessionStorage for this tab only. A sign-in link carries it in the
// URL fragment (never sent to the server); it is read once and removed from the address bar.
const KEY = 'dashboard.token';

export function takeTokenFromLocation(): void {
  const m = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  if (!m) return;
  sessionStorage.setItem(KEY, decodeURIComponent(m[1]!));
  history.replaceState(null, '', window.location.pathname + window.location.search);
}

export const getToken = (): string | null => sessionStorage.getItem(KEY);
export const setToken = (token: string): void => sessionStorage.setItem(KEY, token);
export const clearToken = (): void => sessionStorage.removeItem(KEY);
