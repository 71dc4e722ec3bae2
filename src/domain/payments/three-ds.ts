// The simulated 3D Secure step: the redirect address is offered once, expires 15 minutes after
// the start when not opened, and its form completes the payment at most once.
import type { Payment } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { ProviderTimeoutError } from '../../providers/types.ts';
import { message } from '../messages.ts';
import { ownerOf } from './owners.ts';
import { settlePayment, type Final } from './settle.ts';

export type OpenResult =
  | { state: 'open'; payment: Payment }
  | { state: 'expired' | 'used' | 'invalid' };

export type CompleteResult =
  /** `retryPage`: where the owner sends the customer after a failed 3D step (null: the return POST). */
  | { state: 'completed'; payment: Payment; successful: boolean; retryPage: string | null }
  | { state: 'used' | 'invalid' | 'expired' };

/** Opening the page claims it: a second opening (or one after 15 minutes) is refused. */
export async function openThreeDs(s: Services, token: string): Promise<OpenResult> {
  const payment = await s.db.payment.findUnique({ where: { threeDsToken: token } });
  if (!payment) return { state: 'invalid' };
  if (payment.status !== 'started') return { state: payment.status === 'expired' ? 'expired' : 'used' };
  if (payment.threeDsOpenedAt) return { state: 'used' };
  const now = s.clock.now();
  if (payment.expiresAt && now >= payment.expiresAt) {
    await expirePayment(s, payment.id);
    return { state: 'expired' };
  }
  const claimed = await s.db.payment.updateMany({ where: { id: payment.id, status: 'started', threeDsOpenedAt: null }, data: { threeDsOpenedAt: now } });
  if (claimed.count === 0) return { state: 'used' };
  return { state: 'open', payment: { ...payment, threeDsOpenedAt: now } };
}

/** The customer's answer on the page; the claim (token cleared) makes a double submit harmless. */
export async function completeThreeDs(s: Services, token: string, outcome: 'approve' | 'decline'): Promise<CompleteResult> {
  const payment = await s.db.payment.findUnique({ where: { threeDsToken: token } });
  if (!payment) return { state: 'invalid' };
  const claimed = await s.db.payment.updateMany({
    where: { id: payment.id, threeDsToken: token, status: 'started', threeDsOpenedAt: { not: null } },
    data: { threeDsToken: null },
  });
  if (claimed.count === 0) return { state: payment.status === 'expired' ? 'expired' : 'used' };

  const account = payment.paymentAccountId ? await s.db.paymentAccount.findUnique({ where: { id: payment.paymentAccountId } }) : null;
  const provider = s.providers.get(account?.provider ?? 'simulator');
  let final: Final;
  try {
    const res = await provider.complete3D({ idempotencyKey: `${payment.id}:complete`, providerReference: payment.providerReference ?? '', outcome });
    final =
      res.status === 'succeeded'
        ? { status: 'successful', providerReference: res.providerReference }
        : { status: 'failed', errorCode: res.code, errorMessage: res.message };
  } catch (err) {
    if (!(err instanceof ProviderTimeoutError)) throw err;
    final = { status: 'unresolved', errorCode: 'provider_timeout', errorMessage: message('provider_timeout') };
  }
  // The settlement also saves a card tokenised at the start (card.should_save).
  const settled = await s.db.$transaction((tx) => settlePayment(tx, s.owners, payment.id, final, s.clock.now()));
  const successful = final.status === 'successful';
  return { state: 'completed', payment: settled, successful, retryPage: successful ? null : ownerOf(s.owners, settled).failedThreeDsPage(settled) };
}

/** A started 3D payment whose page was not opened in time becomes `expired` (once). */
export async function expirePayment(s: Services, paymentId: string): Promise<boolean> {
  const now = s.clock.now();
  return s.db.$transaction(async (tx) => {
    const { count } = await tx.payment.updateMany({
      where: { id: paymentId, status: 'started', threeDsOpenedAt: null, expiresAt: { lte: now } },
      // The token stays so a late visitor sees "expired" (410), not "no such address" (404).
      data: { status: 'expired', errorCode: 'payment_expired_3ds', errorMessage: message('payment_expired_3ds'), completedAt: now },
    });
    if (count === 0) return false;
    const payment = await tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
    await ownerOf(s.owners, payment).expired(tx, payment, now);
    return true;
  });
}
