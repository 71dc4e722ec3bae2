// The calls the gateway made to providers about a payment (its start, 3D completion, charge,
// status inquiries, refunds, cancels, card storage), as support reads them on the payment.
import { builder } from '../builder.ts';
import { AttemptOutcome, ProviderOperation } from '../../generated/prisma/client.ts';

const ProviderOperationEnum = builder.enumType(ProviderOperation, {
  name: 'ProviderOperation',
  description: 'Which call of the provider contract an attempt was (docs/providers.md)',
});

const AttemptOutcomeEnum = builder.enumType(AttemptOutcome, {
  name: 'AttemptOutcome',
  description: "How a provider call ended: the provider's answer (succeeded, redirect to 3D Secure, declined, error, unknown to a status inquiry), or timeout (no answer) / error (the call failed)",
});

export const ProviderAttemptRecord = builder.prismaObject('ProviderAttempt', {
  description: 'One call made to a provider: never card data, only what support needs',
  fields: (t) => ({
    operation: t.expose('operation', { type: ProviderOperationEnum }),
    provider: t.exposeString('provider', { description: "The provider's id in the catalog (simulator, iyzico, ...)" }),
    paymentProviderToken: t.exposeString('paymentAccountId', { description: 'The payment account the call was made with' }),
    paymentAccountName: t.string({
      // Accounts are only ever soft-deleted, so the id always finds its account.
      resolve: async (a, _args, ctx) => (await ctx.services.db.paymentAccount.findUnique({ where: { id: a.paymentAccountId }, select: { name: true } }))?.name ?? '',
    }),
    refundToken: t.exposeString('refundId', { nullable: true, description: 'The refund or cancel the call was about' }),
    idempotencyKey: t.exposeString('idempotencyKey', { nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs'),
    outcome: t.expose('outcome', { type: AttemptOutcomeEnum }),
    providerCode: t.exposeString('providerCode', { nullable: true, description: "The provider's own code" }),
    providerMessage: t.exposeString('providerMessage', { nullable: true, description: "The provider's own text (at most 255 characters)" }),
    errorCode: t.exposeString('errorCode', { nullable: true, description: "The gateway's error_code for a refusal, failure or timeout" }),
  }),
});
