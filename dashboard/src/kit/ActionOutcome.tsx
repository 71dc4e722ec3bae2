// The answer to an action that is a button, not a form (rotate, switch, make default, delete):
// "Done." when it worked, else its messages in the user's words, each once, never a field path.
import { useT } from '../i18n.ts';
import { splitErrors, type ApiOutcome } from './field-errors.ts';

export function ActionOutcome({ outcome }: { outcome: ApiOutcome | null | undefined }) {
  const { t } = useT();
  if (!outcome) return null;
  if (outcome.result?.successful) return <p role="status" className="ok">{t.done}</p>;
  const { general } = splitErrors(outcome, new Set());
  return <p role="alert" className="error">{general.join(' ')}</p>;
}
