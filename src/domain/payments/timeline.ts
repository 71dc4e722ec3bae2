// A payment's history as one ordered list, built from the rows that already keep a time: the
// payment (created, its risk decision, 3D page opened and answered, settled), the 3D callbacks its
// connector rejected, its provider calls, its refunds and cancels, the events that name it and each
// webhook delivery attempt of those events. Nothing is
// written for the timeline itself, so it can never disagree with the records it is read from.
import type { Tx } from '../../db/client.ts';
import type { Payment } from '../../generated/prisma/client.ts';
import type { RiskRecord } from '../risk/judge.ts';

export type TimelineKind =
  | 'created'
  | 'risk'
  | 'three_ds_opened'
  | 'three_ds_answered'
  | 'callback_rejected'
  | 'provider_call'
  | 'settled'
  | 'refund'
  | 'cancel'
  | 'event'
  | 'webhook_attempt';

export interface TimelineEntry {
  at: Date;
  kind: TimelineKind;
  /** What the entry ended as: the payment's status, a call's outcome, a refund's status, a webhook's delivery. */
  status: string | null;
  /** Which one: the provider operation, the event kind, the webhook's event, the rejecting provider. */
  name: string | null;
  /** More to read: the account called, the error code, the webhook address and its answer, why a callback was rejected. */
  detail: string | null;
  /** Refunds and cancels only: how much, in minor units of the payment's currency. */
  amount: bigint | null;
}

export interface PaymentTimeline {
  /** The workspace's time zone, in which the dashboard shows the entries. */
  timeZone: string;
  entries: TimelineEntry[];
}

/**
 * Entries at the same instant in the order they happen: the bank is asked to start (3D start,
 * direct charge, card storage) before its page is opened and answered; a refund row is reserved
 * before its call; a call answers before the payment settles; an event is written with the change
 * and delivered after it. A manual clock in tests (and a fast bank) often gives several rows one
 * millisecond.
 */
const SAME_INSTANT_ORDER: Record<TimelineKind, number> = {
  created: 0,
  risk: 0.5,
  three_ds_opened: 2,
  callback_rejected: 3,
  three_ds_answered: 3,
  refund: 4,
  cancel: 4,
  provider_call: 5,
  settled: 6,
  event: 7,
  webhook_attempt: 8,
};

/** Calls that open a payment, before its 3D page; then the rest in the contract's order. */
const OPENING_CALLS = ['start3D', 'charge', 'storeCard'];
const OPERATION_ORDER = ['start3D', 'charge', 'storeCard', 'complete3D', 'paymentStatus', 'refund', 'cancel', 'refundStatus', 'deleteCard'];

const rank = (e: TimelineEntry) => (e.kind === 'provider_call' && OPENING_CALLS.includes(e.name ?? '') ? 1 : SAME_INSTANT_ORDER[e.kind]);

type PaymentRow = Pick<Payment, 'id' | 'workspaceId' | 'status' | 'createdAt' | 'threeDsOpenedAt' | 'threeDsAnsweredAt' | 'completedAt' | 'errorCode' | 'source' | 'securityType' | 'risk'>;

export async function paymentTimeline(db: Tx, payment: PaymentRow): Promise<PaymentTimeline> {
  const [workspace, attempts, refunds, events, rejections] = await Promise.all([
    db.workspace.findUniqueOrThrow({ where: { id: payment.workspaceId }, select: { timeZone: true } }),
    db.providerAttempt.findMany({ where: { paymentId: payment.id } }),
    db.refund.findMany({ where: { paymentId: payment.id } }),
    db.outboxEvent.findMany({
      where: { workspaceId: payment.workspaceId, OR: [{ recordToken: payment.id }, { transactionToken: payment.id }] },
      include: { notifications: { include: { attempts: true } } },
    }),
    db.callbackRejection.findMany({ where: { paymentId: payment.id } }),
  ]);
  const accounts = new Map((await db.paymentAccount.findMany({ where: { id: { in: [...new Set(attempts.map((a) => a.paymentAccountId))] } }, select: { id: true, name: true } })).map((a) => [a.id, a.name]));
  const entries: TimelineEntry[] = [
    ...paymentEntries(payment),
    ...rejections.map((r) => entry(r.at, 'callback_rejected', { status: r.cause, name: r.provider, detail: r.reason })),
    ...attempts.map((a) => entry(a.startedAt, 'provider_call', { status: a.outcome, name: a.operation, detail: join([accounts.get(a.paymentAccountId), a.providerCode, a.errorCode]) })),
    ...refunds.map((r) => entry(r.createdAt, r.type, { status: r.status, detail: r.errorCode, amount: r.amount })),
    ...events.flatMap((e) => [
      entry(e.createdAt, 'event', { name: e.kind }),
      ...e.notifications.flatMap((n) =>
        n.attempts.map((a) => entry(a.startedAt, 'webhook_attempt', { status: a.httpStatus === null ? 'error' : String(a.httpStatus), name: n.event, detail: join([n.url, a.error]) })),
      ),
    ]),
  ];
  return { timeZone: workspace.timeZone, entries: inOrder(entries) };
}

function paymentEntries(p: PaymentRow): TimelineEntry[] {
  const out = [entry(p.createdAt, 'created', { status: p.securityType, name: p.source })];
  const risk = riskEntry(p);
  if (risk) out.push(risk);
  if (p.threeDsOpenedAt) out.push(entry(p.threeDsOpenedAt, 'three_ds_opened'));
  if (p.threeDsAnsweredAt) out.push(entry(p.threeDsAnsweredAt, 'three_ds_answered'));
  // completedAt is set when the payment leaves `started`: settled, failed, expired or unresolved.
  if (p.completedAt && p.status !== 'started') out.push(entry(p.completedAt, 'settled', { status: p.status, detail: p.errorCode }));
  return out;
}

/**
 * The risk decision taken before the bank was asked: its outcome, the rules that fired, and what
 * each source's counts were (`ip 5 cards 0 declines`).
 */
function riskEntry(p: PaymentRow): TimelineEntry | null {
  const risk = p.risk as RiskRecord | null;
  // An attempt the guard did not count and no rule judged (the guard off) has nothing to tell.
  if (!risk || typeof risk !== 'object' || (!risk.guarded && risk.rules.length === 0)) return null;
  const figures = risk.figures.map((f) => join([f.kind, f.cards === null ? null : `${f.cards} cards`, `${f.declines} declines`, f.coolingDown ? 'cooling down' : null])!.replaceAll(' · ', ' '));
  return entry(p.createdAt, 'risk', { status: risk.outcome, name: risk.rules.map((r) => r.rule).join(', ') || null, detail: join(figures) });
}

function entry(at: Date, kind: TimelineKind, more: Partial<Omit<TimelineEntry, 'at' | 'kind'>> = {}): TimelineEntry {
  return { at, kind, status: more.status ?? null, name: more.name ?? null, detail: more.detail ?? null, amount: more.amount ?? null };
}

const join = (parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' · ') || null;

function inOrder(entries: TimelineEntry[]): TimelineEntry[] {
  const operation = (e: TimelineEntry) => (e.kind === 'provider_call' ? OPERATION_ORDER.indexOf(e.name ?? '') : 0);
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at.getTime() - b.e.at.getTime() || rank(a.e) - rank(b.e) || operation(a.e) - operation(b.e) || a.i - b.i)
    .map(({ e }) => e);
}
