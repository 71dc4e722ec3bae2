// A list input (card programs) is one field on the form, while the gateway names the bad entry
// (`programs.1`): such errors are moved to the field so they show beside it, not at the top.
import type { Outcome } from '../ui.tsx';

export function atField(outcome: Outcome, fields: readonly string[]): Outcome {
  if (!outcome?.errors) return outcome;
  const errors = outcome.errors.map((e) => {
    const field = fields.find((f) => e.path[0] === f && e.path.length > 1);
    return field ? { ...e, path: [field] } : e;
  });
  return { ...outcome, errors };
}
