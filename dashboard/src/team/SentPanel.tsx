// An audit entry's sent data in a panel over the trail (a modal dialog: it scrolls on its own, the
// list behind keeps its place): each value under its path, and the whole as JSON to copy. The
// trail's rows show only a one-line preview, so a large input never makes a row tall.
import { useEffect, useRef } from 'react';
import { fill, useT } from '../i18n.ts';
import { CopyButton } from '../kit/CopyButton.tsx';
import { sentLines } from './sent.ts';

export interface SentEntry { operation: string; when: string; tokenName: string | null; requestId: string | null; variables: unknown }

export function SentPanel({ entry, onClose }: { entry: SentEntry; onClose: () => void }) {
  const { t } = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const lines = sentLines(entry.variables);
  return (
    <dialog ref={dialog} className="sent-panel" aria-labelledby="sent-title" onClose={onClose}>
      <div className="row spread">
        <h2 id="sent-title">{fill(t.auditSentTitle, { operation: entry.operation })}</h2>
        <button type="button" autoFocus onClick={() => dialog.current?.close()}>{t.close}</button>
      </div>
      <p className="muted">{[entry.when, entry.tokenName, entry.requestId && `${t.requestId}: ${entry.requestId}`].filter(Boolean).join(' · ')}</p>
      {lines.length === 0 ? <p>{t.auditSentNone}</p> : (
        <dl className="sent-lines" data-field="sent">
          {lines.map((l) => <div key={l.path}><dt><code>{l.path}</code></dt><dd>{l.value}</dd></div>)}
        </dl>
      )}
      <CopyButton text={JSON.stringify(entry.variables, null, 2)} label={t.auditSentJson} />
    </dialog>
  );
}
