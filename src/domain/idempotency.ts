// Idempotency-Key for money-moving calls (beyond the contract, as merchants expect): the first
// request with a key claims it; a retry with the same key and body within 24 hours gets the
// stored answer without touching the bank again; the same key with another body is refused.
//
// A request that dies mid-way (process killed) leaves its key claimed without an answer. Other
// requests with the key wait for it, but only for a lease of 30 seconds after the claim, longer
// than the gateway takes to answer. After it the key has lapsed and a retry looks at what the
// request left behind, found from the retry's body (identical, since the hash matches):
//   - nothing written (no payment or refund row since the claim): nothing reached the bank, so
//     the key is taken over (conditional delete, then the usual claim: one retry wins) and run;
//   - its payment, settled or waiting on its 3D page: answered as that payment now stands, in
//     the operation's response shape, and stored as the key's answer;
//   - a payment still at the bank: "in progress" until it ends (3D timer, reconciliation);
//     a refund or cancel it reserved: "in progress" as before (refunds are not reconciled yet).
//     Running either again could move the money twice.
import { createHash } from 'node:crypto';
import type { SecurityType } from '../generated/prisma/client.ts';
import type { Db } from '../db/client.ts';
import { isDatabaseBusy } from '../db/busy.ts';
import type { Clock } from './clock.ts';
import type { Services } from './services.ts';
import { isUuid } from './validation.ts';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long a claimed key without an answer is taken to belong to a request still running. */
export const IDEMPOTENCY_LEASE_MS = 30 * 1000;

export type Claim =
  | { state: 'claimed'; id: string; claimedAt: Date }
  | { state: 'replay'; status: number; body: string }
  | { state: 'mismatch' }
  | { state: 'in_progress' }
  /** Claimed longer than the lease ago and never answered: its request most likely died. */
  | { state: 'lapsed'; id: string; claimedAt: Date };

export const requestHash = (raw: Buffer): string => createHash('sha256').update(raw).digest('hex');

export async function claimIdempotencyKey(db: Db, clock: Clock, scope: { workspaceId: string; operation: string; key: string; hash: string }): Promise<Claim> {
  const where = { workspaceId_operation_key: { workspaceId: scope.workspaceId, operation: scope.operation, key: scope.key } };
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = clock.now();
    try {
      const { hash, ...key } = scope;
      const created = await db.idempotencyRecord.create({ data: { ...key, requestHash: hash, createdAt: now } });
      return { state: 'claimed', id: created.id, claimedAt: created.createdAt };
    } catch (err) {
      if ((err as { code?: string }).code !== 'P2002') throw err;
    }
    const existing = await db.idempotencyRecord.findUnique({ where });
    if (!existing) continue;
    if (now.getTime() - existing.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS) {
      // Expired: forget it and claim afresh (the conditional delete lets one racer win).
      await db.idempotencyRecord.deleteMany({ where: { id: existing.id, createdAt: existing.createdAt } });
      continue;
    }
    if (existing.requestHash !== scope.hash) return { state: 'mismatch' };
    if (existing.httpStatus !== null && existing.responseBody !== null) return { state: 'replay', status: existing.httpStatus, body: existing.responseBody };
    if (now.getTime() - existing.createdAt.getTime() > IDEMPOTENCY_LEASE_MS) return { state: 'lapsed', id: existing.id, claimedAt: existing.createdAt };
    return { state: 'in_progress' };
  }
  return { state: 'in_progress' };
}

/**
 * Conditional: a request that answers after its key was taken over leaves the new run's answer
 * alone. The answer is kept without a 3D address's sealed card fields (a bank's gate form): card
 * data is never written, not even sealed, so a replay's address opens the page without them, and
 * the page then refuses it (the payment expires; the merchant starts a new one).
 */
export async function storeIdempotentResponse(db: Db, id: string, status: number, body: string): Promise<void> {
  await db.idempotencyRecord.updateMany({ where: { id }, data: { httpStatus: status, responseBody: withoutSealedCard(body) } });
}

/** A 3D address's `?card=…` (sealed card fields) taken out of an answer's text. */
export function withoutSealedCard(body: string): string {
  return body.replace(/(\/checkout\/3ds\/[0-9a-f-]{36})\?card=[A-Za-z0-9_-]+/g, '$1');
}

/** An answer that should not be replayed (a crash or 5xx): free the key for a real retry. */
export async function releaseIdempotencyKey(db: Db, id: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id } });
}

/**
 * Frees the key of a request answered 5xx ("nothing was done"), so that its retry runs, once
 * `leftNothing` agrees. A COMMIT that reached the primary just as it died is kept by the new one
 * although its request could only answer 503; such a request's key stays bound to what it wrote
 * (the lapsed claim's look answers the retry from it), or the retry would write a second payment.
 * When the database is what failed the request (no primary for a few seconds of a failover), the
 * key cannot be looked at or freed at once either: without more, every retry would wait for the
 * lease and answer 409. So a release the database refuses is tried again on its own, with growing
 * pauses, until it is done or the lease is over (the claim has lapsed by then, and its look at
 * what the request left does the same).
 */
export async function releaseFailedKey(db: Db, id: string, leftNothing: () => Promise<boolean>): Promise<void> {
  const release = async () => {
    if (await leftNothing()) await releaseIdempotencyKey(db, id);
  };
  const until = Date.now() + IDEMPOTENCY_LEASE_MS;
  const retry = async () => {
    for (let pause = 100; Date.now() + pause <= until; pause = Math.min(pause * 2, 2_000)) {
      await new Promise((resolve) => setTimeout(resolve, pause));
      try {
        return await release();
      } catch (err) {
        if (!isDatabaseBusy(err)) return;
      }
    }
  };
  // The first try is the caller's; the ones after it run while the request answers 503.
  await release().catch((err: unknown) => {
    if (!isDatabaseBusy(err)) throw err;
    void retry();
  });
}

/** Frees a lapsed key whose request left nothing; the next claim runs the request again. */
export async function takeOverLapsedKey(db: Db, lapsed: { id: string; claimedAt: Date }): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id: lapsed.id, createdAt: lapsed.claimedAt, httpStatus: null } });
}

export type Leftover =
  | { kind: 'nothing' }
  /** `redirectUrl`: the 3D page the payment still waits on (secure-payment's original answer). */
  | { kind: 'payment'; paymentId: string; redirectUrl: string | null }
  | { kind: 'busy' };

const SECURITY: Readonly<Record<string, SecurityType>> = { 'secure-payment': 'secure', 'regular-payment': 'non_secure' };
const RETURNS: Readonly<Record<string, 'refund' | 'cancel'>> = { 'refund-payment': 'refund', 'cancel-payment': 'cancel' };

/**
 * What the lapsed request of `operation` wrote after `claimedAt`. `body` is the request's JSON
 * (snake_case, unvalidated); a body the operation would reject wrote nothing. A payment is the
 * workspace's first API payment with the body's channel_reference since the claim: if another
 * request for the same reference got there first, the key answers with that payment rather than
 * charging the reference again.
 */
export async function leftoverOf(s: Services, scope: { workspaceId: string; operation: string; claimedAt: Date; body: Record<string, unknown> }): Promise<Leftover> {
  const transaction = (scope.body.transaction ?? {}) as Record<string, unknown>;
  const security = SECURITY[scope.operation];
  if (security) {
    const ref = transaction.channel_reference;
    if (typeof ref !== 'string') return { kind: 'nothing' };
    const p = await s.db.payment.findFirst({
      where: { workspaceId: scope.workspaceId, source: 'api', securityType: security, channelReference: ref, createdAt: { gte: scope.claimedAt } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    if (!p) return { kind: 'nothing' };
    if (p.status !== 'started') return { kind: 'payment', paymentId: p.id, redirectUrl: null };
    if (p.threeDsToken) return { kind: 'payment', paymentId: p.id, redirectUrl: `${s.baseUrl}/checkout/3ds/${p.threeDsToken}` };
    return { kind: 'busy' };
  }
  const type = RETURNS[scope.operation];
  if (type) {
    // A reservation may have reached the bank: the request is never run again.
    const token = transaction.token;
    if (typeof token !== 'string' || !isUuid(token)) return { kind: 'nothing' };
    const reserved = await s.db.refund.count({ where: { paymentId: token, type, createdAt: { gte: scope.claimedAt }, payment: { workspaceId: scope.workspaceId } } });
    return reserved === 0 ? { kind: 'nothing' } : { kind: 'busy' };
  }
  // retrieve-payment writes nothing; an operation not listed here keeps waiting, to be safe.
  return scope.operation === 'retrieve-payment' ? { kind: 'nothing' } : { kind: 'busy' };
}

/**
 * Whether a request answered 5xx left nothing its retry could repeat: for a payment, no payment
 * row since its claim (leftoverOf). A refund or cancel reservation is not looked for: its row does
 * not carry the key and refunds are not reconciled, so a key kept for it would answer 409 for the
 * whole window; its retry runs instead and meets the reservation as any other request would (the
 * interrupted-refunds sweep releases one the bank never saw).
 */
export async function leftNothing(s: Services, scope: { workspaceId: string; operation: string; claimedAt: Date; body: Record<string, unknown> }): Promise<boolean> {
  if (!SECURITY[scope.operation]) return true;
  return (await leftoverOf(s, scope)).kind === 'nothing';
}
