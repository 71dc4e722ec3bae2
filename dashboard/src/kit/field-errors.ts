// Which field an API error belongs to. A mutation answers `errors: [{ path, message }]` with the
// path of its input, e.g. ["paymentLink", "items", "0", "name"]: the first segment is the input
// object's name, which a form never shows. A form names its fields by the rest ("items.0.name").
// An error whose path names no field of the form (or none at all) is a general error.

export interface ApiError { path?: readonly string[] | null; message?: string | null }
/** The message of a mutation that never reached the server; shown as the kit's "server could not be reached". */
export const UNREACHABLE = 'kit:unreachable';

export interface ApiOutcome { result?: { successful?: boolean | null; message?: string | null } | null; errors?: readonly ApiError[] | null }

export interface SplitErrors {
  /** Messages per field name, each message once. */
  byField: Map<string, string[]>;
  /** Messages that belong to no field of the form, each once, and none repeated from a field. */
  general: string[];
  /** The outcome failed: a form shows a heading even when every message sits at its field. */
  failed: boolean;
}

/** The field `path` belongs to: the whole path, else the path without its input-object prefix. */
export function fieldOf(path: readonly string[] | null | undefined, fields: ReadonlySet<string>): string | undefined {
  if (!path?.length) return undefined;
  const whole = path.join('.');
  if (fields.has(whole)) return whole;
  const rest = path.slice(1).join('.');
  return rest && fields.has(rest) ? rest : undefined;
}

export function splitErrors(outcome: ApiOutcome | null | undefined, fields: ReadonlySet<string>): SplitErrors {
  const byField = new Map<string, string[]>();
  const general: string[] = [];
  const shown = new Set<string>();
  const failed = !!outcome && outcome.result?.successful === false;
  for (const e of outcome?.errors ?? []) {
    if (!e.message) continue;
    const field = fieldOf(e.path, fields);
    if (field) {
      const list = byField.get(field) ?? [];
      if (!list.includes(e.message)) list.push(e.message);
      byField.set(field, list);
    } else if (!shown.has(e.message)) {
      general.push(e.message);
    }
    shown.add(e.message);
  }
  // The result's message repeats the first error's: shown only when no error said it already.
  const first = outcome?.result?.message;
  if (failed && first && !shown.has(first)) general.unshift(first);
  return { byField, general, failed };
}
