// The answer to a button's mutation (cancel, make default, delete): "Done." or why not, each
// message once and never an internal field path (a button has no field to put it under).
import { useT } from '../i18n.ts';
import { splitErrors, type ApiOutcome } from './field-errors.ts';

const NO_FIELDS: ReadonlySet<string> = new Set();

export function ActionOutcome({ outcome }: { outcome: ApiOutcome | null | undefined }) {
  const { t } = useT();
  if (!outcome) return null;
  if (outcome.result?.successful) return <p role="status" className="ok">{t.done}</p>;
  const { general } = splitErrors(outcome, NO_FIELDS);
  return (
    <div className="form-errors" role="alert">
      <strong>{t.kitActionFailed}</strong>
      {general.length > 0 && <ul>{general.map((m) => <li key={m}>{m}</li>)}</ul>}
    </div>
  );
}
