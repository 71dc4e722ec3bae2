// Paths under /dashboard/ without a router library: the app has a handful of screens.
import { useEffect, useState } from 'react';

const BASE = '/dashboard/';
export const currentPath = () => (location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '');

export function navigate(path: string): void {
  history.pushState(null, '', BASE + path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const on = () => setPath(currentPath());
    window.addEventListener('popstate', on);
    return () => window.removeEventListener('popstate', on);
  }, []);
  return path;
}
