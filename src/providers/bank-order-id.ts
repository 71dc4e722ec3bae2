// The order id a bank's virtual POS (EST oid/OrderId, Garanti orderid) knows a payment by. The bank
// holds one order per payment, and every call about it (the 3D start, its completion, a direct
// charge, the inquiry after a lost answer) must name the same order, so the id is derived from the
// payment's idempotency key: the gateway's keys are `<payment uuid>:<step>` (":authorise",
// ":charge", ":complete").
// The id is that uuid's 32 hex digits written as the letters a-p (0 -> a ... f -> p): no digit at
// all, so no run of it can look like a card number to the log scrubbers (which mask any 12-19 digit
// run that passes the Luhn check), and it fits every bank's limit (alphanumeric, 32 characters; EST takes 64, GVP 36).
// A key of another shape (never sent by the gateway) gets the first 32 hex digits of its SHA-256,
// written the same way, still stable.
import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LETTER_OF_HEX = 'abcdefghijklmnop';

export function bankOrderId(idempotencyKey: string): string {
  const head = idempotencyKey.split(':', 1)[0] ?? '';
  const hex = UUID.test(head) ? head.replace(/-/g, '').toLowerCase() : createHash('sha256').update(idempotencyKey, 'utf8').digest('hex').slice(0, 32);
  return [...hex].map((digit) => LETTER_OF_HEX[Number.parseInt(digit, 16)]).join('');
}

