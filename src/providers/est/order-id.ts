// The order id EST knows a payment by (oid in the 3D form, OrderId in XML calls). The bank holds
// one order per payment, and every call about it (the 3D start, its completion, a direct charge,
// the inquiry after a lost answer) must name the same order, so the id is derived from the
// payment's idempotency key: the gateway's keys are `<payment uuid>:<step>` (":authorise",
// ":charge", ":complete"), and the order id is that uuid without its dashes: 32 hex characters,
// well within EST's 64. A key of another shape (never sent by the gateway) gets the first 32 hex
// characters of its SHA-256, still stable.
import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function orderIdOf(idempotencyKey: string): string {
  const head = idempotencyKey.split(':', 1)[0] ?? '';
  if (UUID.test(head)) return head.replace(/-/g, '').toLowerCase();
  return createHash('sha256').update(idempotencyKey, 'utf8').digest('hex').slice(0, 32);
}

/** Whether a provider reference can be an EST order id (1-64 letters, digits, "-" or "_"): only such is sent as OrderId. */
export function isOrderId(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(value);
}
