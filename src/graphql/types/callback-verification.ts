// PaymentAccount.callbackVerification: how the account's 3-D Secure callbacks fared lately, so the
// dashboard can flag an account whose callbacks keep failing verification ("check the store key").
// The resolver only reads src/domain/payments/callback-rejections.ts.
import { builder } from '../builder.ts';
import { callbackVerification, type CallbackVerification } from '../../domain/payments/callback-rejections.ts';

const CallbackVerificationRef = builder.objectRef<CallbackVerification>('CallbackVerification').implement({
  description: "The account's 3-D Secure callbacks its connector rejected in the last 24 hours",
  fields: (t) => ({
    recentRejections: t.exposeInt('recentRejections', { description: 'Callbacks rejected in the last 24 hours' }),
    lastRejectedAt: t.expose('lastRejectedAt', { type: 'DateTime', nullable: true }),
    lastCause: t.exposeString('lastCause', { nullable: true, description: 'unsigned, signature, merchant, order, amount, currency or incomplete' }),
    lastReason: t.exposeString('lastReason', { nullable: true, description: "The connector's reason for the last rejection" }),
    storeKeySuspect: t.exposeBoolean('storeKeySuspect', { description: 'Signature mismatches keep coming and no callback was verified since: check the store key' }),
  }),
});

builder.prismaObjectField('PaymentAccount', 'callbackVerification', (t) =>
  t.field({
    type: CallbackVerificationRef,
    resolve: (a, _args, ctx) => callbackVerification(ctx.services.db, a.id, ctx.services.clock.now()),
  }),
);
