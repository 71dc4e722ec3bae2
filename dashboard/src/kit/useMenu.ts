// The phone menu's state: open or closed, closed again on navigation (a new path) and on Escape,
// which gives the focus back to the menu button.
import { useEffect, useRef, useState } from 'react';

export function useMenu(path: string) {
  const [open, setOpen] = useState(false);
  const [seenPath, setSeenPath] = useState(path);
  const button = useRef<HTMLButtonElement>(null);
  // Adjusting state while rendering (React's pattern for "reset on prop change"): no extra paint.
  if (seenPath !== path) {
    setSeenPath(path);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return { open, button, toggle: () => setOpen((o) => !o) };
}
