// The 3D Secure step. The redirect address is the gateway's: offered once, it expires 15 minutes
// after the start when not opened, and serves the bank's redirect instruction (a URL, a form, the
// provider's HTML) to the shopper's browser. The bank's ACS posts its result to the payment's
// callback address; the account's connector judges it, and only a verified callback for this
// payment, while it still waits, completes it, at most once. A payment whose page was opened but
// never answered, or whose answer never came back from the bank, is given up 30 minutes after the
// start (the 3D timer below). A callback the connector rejects changes nothing by itself; it is
// kept and explained (callback-rejections.ts), and the bank is asked before such a payment is
// given up, as it is for any opened page of an account whose gate charges the card itself (3-D Pay).
import type { Payment } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { ProviderTimeoutError, type ThreeDsPayment } from '../../providers/types.ts';
import { message } from '../messages.ts';
import type { Currency } from '../money.ts';
import { paymentConnector } from '../accounts.ts';
import { ownerOf } from './owners.ts';
import { refusal, settlePayment, type Final } from './settle.ts';
import { askBank, scheduleReconcile, settleIfStill } from './reconcile.ts';
import { hadRejectedCallback, noteRejectedCallback } from './callback-rejections.ts';

/** A started 3D payment whose page was opened is given up this long after its start. */
export const THREE_DS_ABANDON_MS = 30 * 60 * 1000;
/** How long the bank's reply to a submitted page is awaited before the bank is asked instead. */
export const BANK_REPLY_MS = 2 * 60 * 1000;

export type OpenResult =
  | { state: 'open'; payment: Payment }
  | { state: 'expired' | 'used' | 'invalid' };

export type CompleteResult =
  /** `retryPage`: where the owner sends the customer after the 3D step (null: the return POST). */
  | { state: 'completed'; payment: Payment; successful: boolean; retryPage: string | null }
  /** `rejected`: a callback that is not the bank's answer for this payment (forged, another payment's). */
  | { state: 'used' | 'invalid' | 'expired' | 'rejected' };

/**
 * Opening the page claims it: a second opening (or one after 15 minutes) is refused. `usable`
 * says whether this opening can serve the page (a bank form's sealed card fields came with it);
 * when not, the page is not claimed.
 */
export async function openThreeDs(s: Services, token: string, usable: (p: Payment) => boolean = () => true): Promise<OpenResult> {
  // Unique where set (a partial index), so Prisma reads it as a filter rather than a unique key.
  const payment = await s.db.payment.findFirst({ where: { threeDsToken: token } });
  if (!payment || !usable(payment)) return { state: 'invalid' };
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

/**
 * The bank's answer, posted to the payment's callback address. Nothing is written unless the
 * payment still waits on an opened page and its connector verifies the callback as the bank's
 * answer for it; then the claim (token cleared) makes a repeated post harmless.
 */
export async function completeThreeDs(s: Services, paymentId: string, fields: Record<string, string>): Promise<CompleteResult> {
  const payment = await s.db.payment.findUnique({ where: { id: paymentId } });
  if (!payment) return { state: 'invalid' };
  if (payment.status !== 'started') return { state: payment.status === 'expired' ? 'expired' : 'used' };
  // A callback before the shopper was sent to the bank, or after the page was answered, is not the bank's.
  if (!payment.threeDsOpenedAt || !payment.threeDsToken || !payment.providerReference) return { state: 'used' };
  const connector = await paymentConnector(s, payment);
  const checked = await connector.verifyCallback(threeDsPaymentOf(payment), fields);
  if (checked.status === 'rejected') {
    await noteRejectedCallback(s, payment, { provider: connector.provider, cause: checked.cause, reason: checked.reason });
    return { state: 'rejected' };
  }
  const claimed = await s.db.payment.updateMany({
    where: { id: payment.id, threeDsToken: payment.threeDsToken, status: 'started' },
    data: { threeDsToken: null, threeDsAnsweredAt: s.clock.now() },
  });
  if (claimed.count === 0) return { state: 'used' };

  let final: Final;
  try {
    if (!checked.authenticated) final = refusal(checked.failure);
    else {
      const res = await connector.complete3D({ idempotencyKey: `${payment.id}:complete`, payment: threeDsPaymentOf(payment), data: checked.data });
      final = res.status === 'succeeded' ? { status: 'successful', providerReference: res.providerReference } : refusal(res);
    }
  } catch (err) {
    if (!(err instanceof ProviderTimeoutError)) throw err;
    final = { status: 'unresolved', errorCode: 'provider_timeout', errorMessage: message('provider_timeout') };
  }
  // The 3D timer may have asked the bank and settled it meanwhile (a reply slower than
  // BANK_REPLY_MS): the customer is then shown what it settled.
  const mine = await settleIfStill(s, payment.id, 'started', final);
  if (mine?.status === 'unresolved') await scheduleReconcile(s, mine.id);
  const settled = mine ?? (await s.db.payment.findUniqueOrThrow({ where: { id: payment.id } }));
  const successful = settled.status === 'successful';
  const owner = ownerOf(s.owners, settled);
  const retryPage = successful ? (owner.succeededThreeDsPage?.(settled) ?? null) : owner.failedThreeDsPage(settled);
  return { state: 'completed', payment: settled, successful, retryPage };
}

/** The 3D payment as its connector started it: the start's key, the bank's reference, what was charged, in how many instalments. */
export function threeDsPaymentOf(p: Payment): ThreeDsPayment {
  return {
    startKey: `${p.id}:authorise`,
    providerReference: p.providerReference ?? '',
    amount: p.chargedAmount ?? p.amount,
    currency: (p.chargedCurrency ?? p.currency) as Currency,
    installmentNumber: p.installmentNumber,
  };
}

/**
 * The 3D timer (job expire-payment), first run at the page's expiry: an unopened page expires;
 * an opened one is given up 30 minutes after the start, or BANK_REPLY_MS after its answer went
 * to the bank if that is later. Returns when to look again, or null when nothing is left to do.
 */
export async function runThreeDsTimer(s: Services, paymentId: string): Promise<Date | null> {
  const p = await s.db.payment.findUnique({ where: { id: paymentId } });
  if (!p || p.status !== 'started') return null;
  const now = s.clock.now();
  if (!p.threeDsOpenedAt) {
    if (!p.expiresAt) return null;
    if (now < p.expiresAt) return p.expiresAt;
    // Not expired: the page was opened meanwhile, so it is watched until it is given up.
    return (await expirePayment(s, p.id)) ? null : abandonAt(p);
  }
  const due = abandonAt(p);
  if (now < due) return due;
  return abandonPayment(s, p);
}

function abandonAt(p: Payment): Date {
  const started = p.createdAt.getTime() + THREE_DS_ABANDON_MS;
  const replied = p.threeDsAnsweredAt ? p.threeDsAnsweredAt.getTime() + BANK_REPLY_MS : 0;
  return new Date(Math.max(started, replied));
}

const abandoned = (): Final => ({ status: 'failed', errorCode: 'payment_abandoned_3ds', errorMessage: message('payment_abandoned_3ds') });

async function abandonPayment(s: Services, p: Payment): Promise<Date | null> {
  const now = s.clock.now();
  if (p.threeDsToken) {
    // Nobody answered the page with a callback the gateway could believe, yet the bank may hold a
    // charge (mayBeCharged), so it is asked first; otherwise nothing went to the bank after the start.
    const final = (await mayBeCharged(s, p)) ? await bankOrUnresolved(s, p) : abandoned();
    // Taking the token is the claim completeThreeDs makes: of the timer and a last-second answer, one goes on.
    const ended = await s.db.$transaction(async (tx) => {
      const { count } = await tx.payment.updateMany({ where: { id: p.id, status: 'started', threeDsToken: p.threeDsToken }, data: { threeDsToken: null } });
      if (count === 0) return false;
      await settlePayment(tx, s, p.id, final, now);
      // The token stays (as for an expired page) so a late answer hears "used" (409), not 404.
      await tx.payment.update({ where: { id: p.id }, data: { threeDsToken: p.threeDsToken } });
      return true;
    });
    if (ended && final.status === 'unresolved') await scheduleReconcile(s, p.id);
    return ended ? null : new Date(now.getTime() + BANK_REPLY_MS);
  }
  // The answer went to the bank and its reply never settled the payment: the bank may have
  // taken the money, so it is asked before the payment is given up.
  const settled = await settleIfStill(s, p.id, 'started', await bankOrUnresolved(s, p));
  if (settled?.status === 'unresolved') await scheduleReconcile(s, settled.id);
  return null;
}

/**
 * Whether an opened page that no believed callback answered may have left money at the bank: a
 * 3-D Pay gate charges before any callback (the shopper may close the browser right after), and a
 * rejected callback (a mistyped store key, a 3-D Pay answer without its outcome) may hide a charge
 * the gateway could not read. In the "3D" model with no callback the gateway never asked for money.
 */
async function mayBeCharged(s: Services, p: Payment): Promise<boolean> {
  if ((await paymentConnector(s, p)).chargesAtGate) return true;
  return hadRejectedCallback(s.db, p.id);
}

/** What the bank says became of the payment; given up when it never got it, unresolved when it does not answer. */
async function bankOrUnresolved(s: Services, p: Payment): Promise<Final> {
  try {
    return (await askBank(s, p)) ?? abandoned();
  } catch (err) {
    if (!(err instanceof ProviderTimeoutError)) throw err;
    return { status: 'unresolved', errorCode: 'provider_timeout', errorMessage: message('provider_timeout') };
  }
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
