// 3-D Secure callbacks the payment's connector did not take as the bank's answer. Rejecting one
// changes nothing about the payment, but it must not go unexplained: a mistyped store key makes
// every shopper's answer fail verification, and only the connector knows why. Each rejection is
// kept (the payment's timeline, the account's flag), logged and counted.
import type { Db } from '../../db/client.ts';
import type { Payment } from '../../generated/prisma/client.ts';
import type { CallbackRejection } from '../../providers/types.ts';
import type { Services } from '../services.ts';

/** Rejections kept per payment: enough to explain it, few enough that a flood of forged posts stays small. */
export const REJECTIONS_KEPT_PER_PAYMENT = 20;
/** How far back the account's flag looks. */
export const RECENT_MS = 24 * 60 * 60 * 1000;
/** Signature mismatches, with none verified since, that make the store key the likely cause. */
export const SUSPECT_AFTER = 3;

export interface Rejected {
  provider: string;
  cause: CallbackRejection;
  reason: string;
}

export async function noteRejectedCallback(s: Services, payment: Payment, rejected: Rejected): Promise<void> {
  const accountId = payment.paymentAccountId;
  s.warn('3-D Secure callback rejected', { paymentId: payment.id, accountId, provider: rejected.provider, cause: rejected.cause, reason: rejected.reason });
  s.observe?.callbackRejected(rejected.provider, rejected.cause);
  if (accountId === null) return;
  const kept = await s.db.callbackRejection.count({ where: { paymentId: payment.id } });
  if (kept >= REJECTIONS_KEPT_PER_PAYMENT) return;
  await s.db.callbackRejection.create({
    data: { workspaceId: payment.workspaceId, paymentId: payment.id, paymentAccountId: accountId, provider: rejected.provider, cause: rejected.cause, reason: rejected.reason.slice(0, 255), at: s.clock.now() },
  });
}

export async function hadRejectedCallback(db: Db, paymentId: string): Promise<boolean> {
  return (await db.callbackRejection.count({ where: { paymentId } })) > 0;
}

export interface CallbackVerification {
  /** Rejections of the last 24 hours. */
  recentRejections: number;
  lastRejectedAt: Date | null;
  lastCause: string | null;
  lastReason: string | null;
  /** Signature mismatches keep coming and no callback was verified since: check the store key. */
  storeKeySuspect: boolean;
}

/** The account's recent callback verification, for its settings screen. */
export async function callbackVerification(db: Db, accountId: string, now: Date): Promise<CallbackVerification> {
  const since = new Date(now.getTime() - RECENT_MS);
  const where = { paymentAccountId: accountId, at: { gte: since } };
  const [recentRejections, last, signatureMismatches, lastVerified] = await Promise.all([
    db.callbackRejection.count({ where }),
    db.callbackRejection.findFirst({ where, orderBy: { at: 'desc' } }),
    db.callbackRejection.findMany({ where: { ...where, cause: 'signature' }, orderBy: { at: 'desc' }, take: SUSPECT_AFTER, select: { at: true } }),
    db.payment.findFirst({ where: { paymentAccountId: accountId, threeDsAnsweredAt: { not: null } }, orderBy: { threeDsAnsweredAt: 'desc' }, select: { threeDsAnsweredAt: true } }),
  ]);
  const latestMismatch = signatureMismatches[0]?.at;
  const verifiedSince = latestMismatch !== undefined && (lastVerified?.threeDsAnsweredAt ?? new Date(0)) > latestMismatch;
  return {
    recentRejections,
    lastRejectedAt: last?.at ?? null,
    lastCause: last?.cause ?? null,
    lastReason: last?.reason ?? null,
    storeKeySuspect: signatureMismatches.length >= SUSPECT_AFTER && !verifiedSince,
  };
}
