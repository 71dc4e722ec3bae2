// What the new-link form does with its input and its answer beyond the kit: the quantity is an Int
// in the schema (a typed "2.5" could not even be sent), and offered amounts are one text box while
// the API names each amount ("paymentLink.predefinedAmounts.1").
import { fill } from '../i18n.ts';
import type { ApiOutcome } from '../kit/field-errors.ts';

/** A quantity box's value for the API: blank is "not given" (the API's 1), else a whole number, else null (refused here). */
export function quantityOf(typed: string): number | undefined | null {
  const v = typed.trim();
  if (v === '') return undefined;
  return /^\d{1,9}$/.test(v) ? Number(v) : null;
}

/** The local answer for quantities that are not whole numbers, shaped like the API's, by field. */
export function quantityErrors(quantities: readonly (number | undefined | null)[], message: string): ApiOutcome | null {
  const errors = quantities.flatMap((q, n) => (q === null ? [{ path: ['items', String(n), 'quantity'], message }] : []));
  return errors.length ? { result: { successful: false }, errors } : null;
}

/** Each offered amount's error moved to the amounts box, saying which amount ("Amount 2: …"). */
export function amountsOnOneField(outcome: ApiOutcome | null | undefined, template: string): ApiOutcome | null | undefined {
  if (!outcome?.errors) return outcome;
  let moved = false;
  const errors = outcome.errors.map((e) => {
    const path = e.path ?? [];
    const at = path.indexOf('predefinedAmounts');
    if (at < 0 || path.length !== at + 2) return e;
    moved = true;
    return { path: path.slice(0, at + 1), message: fill(template, { n: String(Number(path[at + 1]) + 1), message: e.message ?? '' }) };
  });
  // The result's message repeats the first error's original words: the errors say it all now.
  return moved ? { ...outcome, result: { ...outcome.result, message: null }, errors } : outcome;
}
