import { builder } from '../builder.ts';
import { payload, ResultRef, UserErrorRef } from './result.ts';
import { actingWorkspace } from '../auth.ts';
import { retrieveBin, type RetrieveBinResult } from '../../domain/bin.ts';
import type { BinInfo, InstallmentOption } from '../../providers/types.ts';
import { formatAmount } from '../../domain/money.ts';

export const BinCard = builder.objectRef<BinInfo>('BinCard').implement({
  description: 'Scheme and issuer data of a BIN; fields the provider does not know are null',
  fields: (t) => ({
    bin: t.exposeString('bin'),
    issuerName: t.exposeString('issuerName', { nullable: true }),
    issuerCode: t.exposeString('issuerCode', { nullable: true }),
    scheme: t.exposeString('scheme', { nullable: true }),
    type: t.exposeString('type', { nullable: true }),
    program: t.exposeString('program', { nullable: true }),
    isCommercial: t.exposeBoolean('isCommercial', { nullable: true }),
  }),
});

export const Installment = builder.objectRef<InstallmentOption>('Installment').implement({
  fields: (t) => ({
    number: t.exposeInt('number'),
    amount: t.string({ description: 'Per installment', resolve: (i) => formatAmount(i.amount) }),
    total: t.string({ description: 'Total to charge (send as transaction.amount)', resolve: (i) => formatAmount(i.total) }),
  }),
});

const RetrieveBinPayload = builder
  .objectRef<{ result: { successful: boolean; message: string | null }; errors: never[] } & Partial<RetrieveBinResult>>('RetrieveBinPayload')
  .implement({
    fields: (t) => ({
      result: t.field({ type: ResultRef, resolve: (p) => p.result }),
      card: t.field({ type: BinCard, nullable: true, resolve: (p) => p.card ?? null }),
      installments: t.field({ type: [Installment], resolve: (p) => p.installments ?? [] }),
      errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
    }),
  });

const RetrieveBinCardInput = builder.inputType('RetrieveBinCardInput', {
  fields: (t) => ({ bin: t.string() }),
});
const RetrieveBinTransactionInput = builder.inputType('RetrieveBinTransactionInput', {
  fields: (t) => ({
    amount: t.field({ type: 'AmountInput' }),
    currency: t.string(),
    paymentProviderToken: t.string(),
  }),
});
const RetrieveBinInput = builder.inputType('RetrieveBinInput', {
  fields: (t) => ({
    card: t.field({ type: RetrieveBinCardInput }),
    transaction: t.field({ type: RetrieveBinTransactionInput }),
  }),
});

builder.queryField('retrieveBin', (t) =>
  t.field({
    type: RetrieveBinPayload,
    description: 'Card scheme/issuer data and installment options for a BIN (contract: retrieve-bin)',
    args: { input: t.arg({ type: RetrieveBinInput, required: true }) },
    resolve: (_root, args, ctx) =>
      payload(ctx, () => retrieveBin(ctx.services, actingWorkspace(ctx), args.input)) as never,
  }),
);
