// Webhook addresses and their notifications for the dashboard (contract: Events). Resolvers only call
// the domain (src/domain/webhooks) and shape its answer; reads are scoped to the caller's workspace.
import { builder } from '../builder.ts';
import { actingWorkspace } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { addWebhookAddress, deleteWebhookAddress, setWebhookEnabled, setWebhookEvents } from '../../domain/webhooks/addresses.ts';
import { resendNotification } from '../../domain/webhooks/delivery.ts';
import { eventsOpenFor } from '../../domain/webhooks/kinds.ts';
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS, rotateWebhookSecret } from '../../domain/webhooks/rotation.ts';
import { sendTestEvent, testDelivered, type TestDelivery } from '../../domain/webhooks/test-event.ts';
import { connectionOf, DateRangeFilter, FILTER_TEXT, listArgs, listWhere, NEWEST_FIRST, NotificationStatusEnum, page } from '../lists.ts';
import type { Notification, Prisma, WebhookAddress } from '../../generated/prisma/client.ts';

// ---------------------------------------------------------------- objects

export const WebhookAddressRecord = builder.prismaObject('WebhookAddress', {
  description: 'An address the gateway posts notifications to, with the events it selected',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false }),
    url: t.exposeString('url', { nullable: false }),
    events: t.exposeStringList('events', { nullable: false, description: 'Selected event kinds (empty when allEvents)' }),
    allEvents: t.exposeBoolean('allEvents', { nullable: false }),
    enabled: t.exposeBoolean('enabled', { nullable: false }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: false }),
    signingSecretSet: t.boolean({
      nullable: false,
      description: 'Whether the address has its own signing secret (X-Webhook-Signature); the secret itself is shown only when made',
      select: { signingSecretEncrypted: true },
      resolve: (a) => a.signingSecretEncrypted !== null,
    }),
    secretRotatedAt: t.expose('secretRotatedAt', { type: 'DateTime', nullable: true, description: 'When the signing secret was last rotated' }),
    previousSecretUntil: t.expose('previousSecretUntil', { type: 'DateTime', nullable: true, description: 'The previous signing secret signs too until then (the overlap of the last rotation)' }),
  }),
});

builder.prismaObject('NotificationAttempt', {
  description: 'One HTTP attempt of a notification',
  fields: (t) => ({
    number: t.exposeInt('number', { nullable: false }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: false }),
    durationMs: t.exposeInt('durationMs', { nullable: false }),
    httpStatus: t.exposeInt('httpStatus', { nullable: true }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true }),
    error: t.exposeString('error', { nullable: true, description: 'Connection error or timeout; null when an answer came' }),
  }),
});

export const NotificationRecord = builder.prismaObject('Notification', {
  description: 'One event for one address; `id` and `body` never change, so a resend is identical',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false }),
    event: t.exposeString('event', { nullable: false }),
    url: t.exposeString('url', { nullable: false, description: 'The address as it was when the event happened' }),
    recordToken: t.exposeString('recordToken', { nullable: false }),
    status: t.expose('status', { type: NotificationStatusEnum, nullable: false }),
    attemptCount: t.exposeInt('attemptCount', { nullable: false }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: false }),
    body: t.exposeString('body', { nullable: false, description: 'The JSON text sent, byte for byte' }),
    attempts: t.relation('attempts', { nullable: false, query: { orderBy: { number: 'asc' } } }),
  }),
});

// ---------------------------------------------------------------- payloads

interface AddressPayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  webhookAddress?: WebhookAddress;
  signingSecret?: string;
}

interface TestPayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  test?: TestDelivery;
}

interface NotificationPayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  notification?: Notification;
}

const WebhookAddressPayload = builder.objectRef<AddressPayloadShape>('WebhookAddressPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, nullable: false, resolve: (p) => p.result }),
    webhookAddress: t.field({ type: WebhookAddressRecord, nullable: true, resolve: (p) => p.webhookAddress ?? null }),
    signingSecret: t.string({
      nullable: true,
      description: 'The address’s new signing secret: only in the answer of addWebhookAddress and rotateWebhookSecret, never again',
      resolve: (p) => p.signingSecret ?? null,
    }),
    errors: t.field({ type: [UserErrorRef], nullable: false, resolve: (p) => p.errors }),
  }),
});

const WebhookTestDelivery = builder.objectRef<TestDelivery>('WebhookTestDelivery').implement({
  description: 'A test event POSTed to an address and its answer (not a notification: nothing is stored or retried)',
  fields: (t) => ({
    event: t.exposeString('event', { nullable: false }),
    url: t.exposeString('url', { nullable: false }),
    body: t.exposeString('body', { nullable: false, description: 'The JSON text sent; every record token in it is the nil UUID' }),
    sentAt: t.expose('sentAt', { type: 'DateTime', nullable: false }),
    httpStatus: t.exposeInt('httpStatus', { nullable: true }),
    durationMs: t.exposeInt('durationMs', { nullable: false, description: 'How long the receiver took to answer' }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true }),
    error: t.exposeString('error', { nullable: true, description: 'Connection error, timeout or refused destination; null when an answer came' }),
    delivered: t.boolean({ nullable: false, description: 'A 2xx answer came whole within the timeout', resolve: testDelivered }),
  }),
});

const WebhookTestPayload = builder.objectRef<TestPayloadShape>('WebhookTestPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, nullable: false, resolve: (p) => p.result }),
    test: t.field({ type: WebhookTestDelivery, nullable: true, resolve: (p) => p.test ?? null }),
    errors: t.field({ type: [UserErrorRef], nullable: false, resolve: (p) => p.errors }),
  }),
});

const NotificationPayload = builder.objectRef<NotificationPayloadShape>('NotificationPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, nullable: false, resolve: (p) => p.result }),
    notification: t.field({ type: NotificationRecord, nullable: true, resolve: (p) => p.notification ?? null }),
    errors: t.field({ type: [UserErrorRef], nullable: false, resolve: (p) => p.errors }),
  }),
});

const AddWebhookAddressInput = builder.inputType('AddWebhookAddressInput', {
  fields: (t) => ({
    url: t.string({ required: true, description: 'A public https address (http to localhost only outside production)' }),
    events: t.stringList({ description: 'Event kinds to send; at least one unless allEvents' }),
    allEvents: t.boolean({ description: 'Every event kind of the workspace' }),
  }),
});

// ---------------------------------------------------------------- mutations

builder.mutationField('addWebhookAddress', (t) =>
  t.field({
    type: WebhookAddressPayload,
    args: { input: t.arg({ type: AddWebhookAddressInput, required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => {
        const webhookAddress = await addWebhookAddress(ctx.services, actingWorkspace(ctx), args.input);
        return { webhookAddress, signingSecret: webhookAddress.signingSecret };
      }) as Promise<AddressPayloadShape>,
  }),
);

builder.mutationField('setWebhookEvents', (t) =>
  t.field({
    type: WebhookAddressPayload,
    description: 'Replaces the selected events of an address',
    args: { id: t.arg.id({ required: true }), events: t.arg.stringList(), allEvents: t.arg.boolean() },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({
        webhookAddress: await setWebhookEvents(ctx.services, actingWorkspace(ctx), String(args.id), args.events, args.allEvents),
      })) as Promise<AddressPayloadShape>,
  }),
);

builder.mutationField('disableWebhookAddress', (t) =>
  t.field({
    type: WebhookAddressPayload,
    description: 'The address gets nothing more; its queued notifications are dropped',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({ webhookAddress: await setWebhookEnabled(ctx.services, actingWorkspace(ctx), String(args.id), false) })) as Promise<AddressPayloadShape>,
  }),
);

builder.mutationField('enableWebhookAddress', (t) =>
  t.field({
    type: WebhookAddressPayload,
    description: 'Events from now on are sent again (dropped notifications stay dropped; resend them by hand)',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({ webhookAddress: await setWebhookEnabled(ctx.services, actingWorkspace(ctx), String(args.id), true) })) as Promise<AddressPayloadShape>,
  }),
);

builder.mutationField('deleteWebhookAddress', (t) =>
  t.field({
    type: WebhookAddressPayload,
    description: 'Deletes the address and drops its queued notifications; returns the address as it was',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({ webhookAddress: await deleteWebhookAddress(ctx.services, actingWorkspace(ctx), String(args.id)) })) as Promise<AddressPayloadShape>,
  }),
);

builder.mutationField('rotateWebhookSecret', (t) =>
  t.field({
    type: WebhookAddressPayload,
    description: `A new signing secret for the address (shown only in this answer); the previous one keeps signing beside it for overlapHours (default ${DEFAULT_OVERLAP_HOURS}, 0 to ${MAX_OVERLAP_HOURS})`,
    args: { id: t.arg.id({ required: true }), overlapHours: t.arg.int() },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => {
        const { address, signingSecret } = await rotateWebhookSecret(ctx.services, actingWorkspace(ctx), String(args.id), { overlapHours: args.overlapHours });
        return { webhookAddress: address, signingSecret };
      }) as Promise<AddressPayloadShape>,
  }),
);

builder.mutationField('sendTestWebhook', (t) =>
  t.field({
    type: WebhookTestPayload,
    description: 'POSTs a signed test of an event kind the address gets (default: its first) to it now, and returns its answer',
    args: { id: t.arg.id({ required: true }), event: t.arg.string() },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({ test: await sendTestEvent(ctx.services, actingWorkspace(ctx), String(args.id), { event: args.event }) })) as Promise<TestPayloadShape>,
  }),
);

builder.mutationField('resendNotification', (t) =>
  t.field({
    type: NotificationPayload,
    description: 'Sends a notification whose attempts ended once more, at once: same id and body, to its stored URL',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({ notification: await resendNotification(ctx.services, actingWorkspace(ctx), String(args.id)) })) as Promise<NotificationPayloadShape>,
  }),
);

// ---------------------------------------------------------------- queries

builder.queryField('webhookAddresses', (t) =>
  t.prismaField({
    type: ['WebhookAddress'],
    nullable: false,
    description: 'The workspace’s webhook addresses, oldest first',
    resolve: (query, _r, _a, ctx) =>
      ctx.services.db.webhookAddress.findMany({ ...query, where: listWhere<Prisma.WebhookAddressWhereInput>(ctx, {}), orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  }),
);

const NotificationFilter = builder.inputType('NotificationFilter', {
  fields: (t) => ({
    recordToken: t.string({ description: FILTER_TEXT.recordToken }),
    status: t.field({ type: [NotificationStatusEnum], description: `${FILTER_TEXT.status}; [failed, dropped] lists the undelivered ones` }),
    created: t.field({ type: DateRangeFilter, description: FILTER_TEXT.created }),
  }),
});

builder.queryField('notifications', (t) =>
  t.prismaConnection(
    {
      type: 'Notification',
      cursor: 'id',
      nullable: false,
      description: 'Notifications of the workspace with their attempts, newest first',
      args: listArgs(t.arg, NotificationFilter),
      resolve: (query, _r, args, ctx) =>
        ctx.services.db.notification.findMany({ ...page(query), where: listWhere<Prisma.NotificationWhereInput>(ctx, args), orderBy: NEWEST_FIRST }),
    },
    ...connectionOf('Notification'),
  ),
);

builder.queryField('eventKinds', (t) =>
  t.stringList({
    nullable: false,
    description: 'Event kinds that can be selected in the caller’s workspace (only those of open modules)',
    resolve: (_r, _a, ctx) => eventsOpenFor(actingWorkspace(ctx)),
  }),
);
