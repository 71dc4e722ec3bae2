// A status as a coloured pill whose text says the meaning: the colour only repeats it.
import { useT } from '../i18n.ts';
import { statusOf, type StatusKind } from './status.ts';

export function StatusBadge({ kind, value }: { kind: StatusKind; value: string | null | undefined }) {
  const { lang } = useT();
  if (value == null || value === '') return <span className="muted">—</span>;
  const s = statusOf(kind, value, lang);
  return (
    <span className={`badge tone-${s.tone}`} data-status={value} data-tone={s.tone}>
      {s.label}
    </span>
  );
}
