// The three states of anything loaded: loading (announced, not a lone "…"), empty (a sentence
// that helps) and failed (the message and a way to try again).
import type { ReactNode } from 'react';
import { useT } from '../i18n.ts';

/**
 * Skeleton rows while `aria-busy`; screen readers hear "Loading…" (a polite live region, not
 * role=status: a screen's own status region, such as a mutation's outcome, stays the only one).
 */
export function Loading({ rows = 3, label }: { rows?: number; label?: string }) {
  const { t } = useT();
  return (
    <div className="loading" aria-busy="true" aria-live="polite">
      <span className="sr-only">{label ?? t.kitLoading}</span>
      {Array.from({ length: rows }, (_, i) => <div key={i} className="skeleton" aria-hidden="true" />)}
    </div>
  );
}

/** Nothing to show: a sentence saying so (by default the kit's), and what to do next if given. */
export function Empty({ children, filtered }: { children?: ReactNode; filtered?: boolean }) {
  const { t } = useT();
  return <div className="empty">{children ?? (filtered ? t.kitEmptyFiltered : t.kitEmpty)}</div>;
}

/** A failed load: its message, announced, and a retry button when the caller can retry. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const { t } = useT();
  return (
    <div className="error-state" role="alert">
      <strong>{t.kitErrorTitle}</strong>
      <p>{message}</p>
      {onRetry && <button type="button" onClick={onRetry}>{t.kitRetry}</button>}
    </div>
  );
}
