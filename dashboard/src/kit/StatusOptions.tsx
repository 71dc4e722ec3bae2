// The <option>s of a status filter: every value the kind knows, in its meaningful order, each
// labelled in the reader's language (the value sent is still the schema's).
import { useT } from '../i18n.ts';
import { statusOf, statusValues, type StatusKind } from './status.ts';

export function StatusOptions({ kind }: { kind: StatusKind }) {
  const { lang } = useT();
  return <>{statusValues(kind).map((v) => <option key={v} value={v}>{statusOf(kind, v, lang).label}</option>)}</>;
}
