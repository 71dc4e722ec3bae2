// Saved cards (contract: save-card, saved-cards, default-saved-card, delete-saved-card), also used by
// the dashboard to show, default and delete a customer's cards.
import { builder } from '../builder.ts';
import { actingWorkspace } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { CustomerRef, SavedCardObject } from './payment-objects.ts';
import { CustomerInput } from './payments.ts';
import { deleteSavedCard, listSavedCards, saveCard, setDefaultSavedCard } from '../../domain/saved-cards.ts';
import { localizedError } from '../../domain/payments/view.ts';
import type { Customer, SavedCard } from '../../generated/prisma/client.ts';

const SaveCardCardInput = builder.inputType('SaveCardCardInput', {
  fields: (t) => ({ holderName: t.string(), number: t.string(), expiryMonth: t.string(), expiryYear: t.string(), securityCode: t.string() }),
});
const SaveCardTargetInput = builder.inputType('SaveCardTargetInput', { fields: (t) => ({ channelToken: t.string(), paymentProviderToken: t.string() }) });
const SaveCardInput = builder.inputType('SaveCardInput', {
  fields: (t) => ({ savedCard: t.field({ type: SaveCardTargetInput }), customer: t.field({ type: CustomerInput }), card: t.field({ type: SaveCardCardInput }) }),
});
const CustomerRefInput = builder.inputType('CustomerRefInput', { fields: (t) => ({ channelToken: t.string(), channelReference: t.string() }) });
const SavedCardsInput = builder.inputType('SavedCardsInput', { fields: (t) => ({ customer: t.field({ type: CustomerRefInput }) }) });
const SavedCardTokenInput = builder.inputType('SavedCardTokenInput', { fields: (t) => ({ token: t.string() }) });
const SavedCardRefInput = builder.inputType('SavedCardRefInput', {
  fields: (t) => ({ customer: t.field({ type: CustomerRefInput }), savedCard: t.field({ type: SavedCardTokenInput }) }),
});

interface Shape {
  result: ResultShape;
  errors: UserErrorShape[];
  customer?: Customer;
  savedCard?: SavedCard | { id: string } | null;
  savedCards?: SavedCard[];
}

const customerField = (t: PothosSchemaTypes.ObjectFieldBuilder<Types, Shape>) =>
  t.field({ type: CustomerRef, nullable: true, resolve: (p) => (p.customer ? { channelReference: p.customer.channelReference } : null) });
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

const SavedCardPayload = builder.objectRef<Shape>('SavedCardPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    savedCard: t.field({ type: SavedCardObject, nullable: true, resolve: (p) => (p.savedCard as SavedCard | null | undefined) ?? null }),
    customer: customerField(t),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

const SavedCardsPayload = builder.objectRef<Shape>('SavedCardsPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    savedCards: t.field({ type: [SavedCardObject], resolve: (p) => p.savedCards ?? [] }),
    customer: customerField(t),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

const DeletedCardRef = builder.objectRef<{ id: string }>('DeletedSavedCard').implement({ fields: (t) => ({ token: t.exposeString('id') }) });
const DeleteSavedCardPayload = builder.objectRef<Shape>('DeleteSavedCardPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    savedCard: t.field({ type: DeletedCardRef, nullable: true, resolve: (p) => (p.savedCard ? { id: p.savedCard.id } : null) }),
    customer: customerField(t),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('saveCard', (t) =>
  t.field({
    type: SavedCardPayload,
    description: 'Stores a card at the account’s provider without a payment',
    args: { input: t.arg({ type: SaveCardInput, required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => {
        const r = await saveCard(ctx.services, actingWorkspace(ctx), args.input);
        const message = r.failure ? localizedError(r.failure.code, r.failure.text, ctx.lang) : null;
        return { customer: r.customer, savedCard: r.savedCard, result: { successful: r.savedCard !== null, message, errorCode: r.failure?.code ?? null } };
      }) as Promise<Shape>,
  }),
);

builder.queryField('savedCards', (t) =>
  t.field({
    type: SavedCardsPayload,
    description: 'All cards of a customer: default first, then oldest to newest',
    args: { input: t.arg({ type: SavedCardsInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, () => listSavedCards(ctx.services, actingWorkspace(ctx), args.input)) as Promise<Shape>,
  }),
);

builder.mutationField('defaultSavedCard', (t) =>
  t.field({
    type: SavedCardPayload,
    description: 'Makes the card the customer’s default (renewals are charged from it)',
    args: { input: t.arg({ type: SavedCardRefInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, () => setDefaultSavedCard(ctx.services, actingWorkspace(ctx), args.input)) as Promise<Shape>,
  }),
);

builder.mutationField('deleteSavedCard', (t) =>
  t.field({
    type: DeleteSavedCardPayload,
    description: 'Deletes the card at the provider and in the gateway',
    args: { input: t.arg({ type: SavedCardRefInput, required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => {
        const r = await deleteSavedCard(ctx.services, actingWorkspace(ctx), args.input);
        const message = r.failure ? localizedError(r.failure.code, r.failure.text, ctx.lang) : null;
        return { customer: r.customer, savedCard: r.savedCard, result: { successful: r.failure === null, message, errorCode: r.failure?.code ?? null } };
      }) as Promise<Shape>,
  }),
);
