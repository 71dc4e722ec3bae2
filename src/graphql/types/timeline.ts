// Payment.timeline: the payment's history in order (src/domain/payments/timeline.ts), with the
// workspace's time zone for showing it. Whoever may read the payment may read its timeline.
import { builder } from '../builder.ts';
import { formatAmount } from '../../domain/money.ts';
import { paymentTimeline, type PaymentTimeline, type TimelineEntry, type TimelineKind } from '../../domain/payments/timeline.ts';

const KINDS: TimelineKind[] = ['created', 'risk', 'three_ds_opened', 'three_ds_answered', 'callback_rejected', 'provider_call', 'settled', 'refund', 'cancel', 'event', 'webhook_attempt'];

const TimelineKindEnum = builder.enumType('TimelineKind', {
  description: 'What a timeline entry records: the payment created, its risk decision (status: the outcome; name: the rules that fired; detail: the figures they saw), its 3D page opened or answered, a 3D callback its connector rejected (status: the cause; detail: the reason), a provider call, its settlement (status), a refund or cancel, an event written, a webhook delivery attempt',
  values: KINDS,
});

const TimelineEntryRef = builder.objectRef<TimelineEntry>('TimelineEntry').implement({
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime' }),
    kind: t.field({ type: TimelineKindEnum, resolve: (e) => e.kind }),
    status: t.exposeString('status', { nullable: true, description: "The payment's status (settled), the call's outcome, the refund's status, the webhook answer's HTTP status or `error`; created: the security type" }),
    name: t.exposeString('name', { nullable: true, description: 'The provider operation, the event kind, the webhook event; created: the source' }),
    detail: t.exposeString('detail', { nullable: true, description: 'The account called and codes, the error code, the webhook address and its error' }),
    amount: t.string({ nullable: true, description: 'Refunds and cancels', resolve: (e) => (e.amount === null ? null : formatAmount(e.amount)) }),
  }),
});

const PaymentTimelineRef = builder.objectRef<PaymentTimeline>('PaymentTimeline').implement({
  fields: (t) => ({
    timeZone: t.exposeString('timeZone', { description: "The workspace's time zone (IANA name)" }),
    entries: t.field({ type: [TimelineEntryRef], resolve: (p) => p.entries }),
  }),
});

builder.prismaObjectField('Payment', 'timeline', (t) =>
  t.field({
    type: PaymentTimelineRef,
    description: 'Every state change of the payment with its time, oldest first: created, 3D page opened and answered, provider calls, settlement, refunds and cancels, events and webhook attempts',
    resolve: (p, _a, ctx) => paymentTimeline(ctx.services.db, p),
  }),
);
