// The answer to a button's mutation (close, resend, disable…): "Done." or its messages, each once
// and never with the input path the API names them by; announced to screen readers.
import { useT } from '../i18n.ts';
import { splitErrors, UNREACHABLE, type ApiOutcome } from './field-errors.ts';

export function ActionOutcome({ outcome }: { outcome: ApiOutcome | null | undefined }) {
  const { t } = useT();
  if (!outcome) return null;
  if (outcome.result?.successful) return <p role="status" className="ok">{t.done}</p>;
  const { general } = splitErrors(outcome, new Set());
  return (
    <div role="status" className="form-errors">
      {general.length ? general.map((m) => <p key={m}>{m === UNREACHABLE ? t.kitServerDown : m}</p>) : <p>{t.kitFormErrors}</p>}
    </div>
  );
}
