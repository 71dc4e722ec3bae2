// PayFlex v4 signs nothing (mewebstudio/pos gives it NullCrypt): its MPI posts the 3-D result back
// through the shopper's browser unsigned, with the card number and expiry it authenticated. So the
// gateway seals what it can with a key of its own (ConnectorDeps.key, derived from the master key,
// never sent anywhere): the enrollment carries SessionInfo, which the MPI posts back unchanged: an
// HMAC over the enrollment id (random, kept in the payment's reference), the card number, its
// expiry, the amount, the currency and the instalments. A callback whose card, amount or
// instalments were changed, or that was pieced together from another payment's, fails the seal. The authentication's own fields
// (Status, CAVV, ECI) are the MPI's and cannot be sealed by the merchant: the VPOS checks them
// when the gateway sells with them.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface SealKey {
  key: Buffer;
  merchantId: string;
}

/** A 3-D start's VerifyEnrollmentRequestId (also the 3-D sale's MpiTransactionId): 32 random hex digits, as mewebstudio makes them. */
export function newEnrollmentId(): string {
  return randomBytes(16).toString('hex');
}

export interface SealedFields {
  enrollmentId: string;
  pan: string;
  /** YYMM. */
  expiry: string;
  /** Minor units. */
  amount: bigint;
  /** ISO 4217 number. */
  currency: string;
  /** "0" for a single payment. */
  installments: string;
}

/** SessionInfo: base64url of the HMAC (43 characters). */
export function sessionSeal(seal: SealKey, f: SealedFields): string {
  const text = ['session', seal.merchantId, f.enrollmentId, f.pan, f.expiry, f.amount.toString(), f.currency, f.installments].join('|');
  return createHmac('sha256', seal.key).update(text).digest('base64url');
}

/** Whether SessionInfo is the seal of these fields (compared in constant time). */
export function checkSessionSeal(seal: SealKey, f: SealedFields, given: string): boolean {
  const expected = Buffer.from(sessionSeal(seal, f));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
