// Ids as the gateway's logs show them. A bank's order id is hex, and a run of 12-19 decimal digits
// inside it (one id in a few dozen) looks like a card number: the connector's exchange scrubber
// and the logger's defence in depth mask it. Tests that find a call in the logs by its order id
// match the masked form too.
const ESCAPE = /[.*+?^${}()|[\]\\]/g;

/** A pattern for `id` as a log may show it: each run of 12-19 digits may be masked (digits and '*'). */
export function loggedId(id: string): RegExp {
  return new RegExp(id.replace(ESCAPE, '\\$&').replace(/\d{12,19}/g, '[0-9*]{12,19}'));
}

/** Whether a logged value is `id`, masked or not. */
export function isLoggedId(logged: unknown, id: string): boolean {
  return new RegExp(`^${loggedId(id).source}$`).test(String(logged));
}
