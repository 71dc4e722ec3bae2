// Objects shared by payment responses: the transaction reference, customer reference,
// conversion and saved card of the contract's "Common response objects".
import { builder } from '../builder.ts';
import type { SavedCard } from '../../generated/prisma/client.ts';
import { formatAmount } from '../../domain/money.ts';
import type { ConversionView } from '../../domain/payments/view.ts';

export interface TransactionRefShape {
  token: string;
  channelToken: string | null;
  channelReference: string | null;
}

export const TransactionRef = builder.objectRef<TransactionRefShape>('TransactionRef').implement({
  fields: (t) => ({
    token: t.exposeString('token'),
    channelToken: t.exposeString('channelToken', { nullable: true }),
    channelReference: t.exposeString('channelReference', { nullable: true }),
  }),
});

export const CustomerRef = builder.objectRef<{ channelReference: string }>('CustomerRef').implement({
  fields: (t) => ({ channelReference: t.exposeString('channelReference') }),
});

export const Conversion = builder.objectRef<ConversionView>('Conversion').implement({
  description: 'Set when the card was charged in another currency by conversion',
  fields: (t) => ({
    amount: t.string({ resolve: (c) => formatAmount(c.amount) }),
    currency: t.exposeString('currency'),
    rate: t.exposeString('rate'),
  }),
});

export const SavedCardObject = builder.objectRef<SavedCard>('SavedCardObject').implement({
  description: 'A stored card: never the full number or security code',
  fields: (t) => ({
    token: t.exposeString('id'),
    paymentProviderToken: t.exposeString('paymentAccountId', { nullable: true }),
    holderName: t.exposeString('holderName'),
    scheme: t.exposeString('scheme', { nullable: true }),
    firstDigits: t.exposeString('firstDigits'),
    lastFourDigit: t.exposeString('lastFourDigits'),
    expiryMonth: t.exposeString('expiryMonth'),
    expiryYear: t.exposeString('expiryYear'),
    isDefault: t.exposeBoolean('isDefault'),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: true }),
  }),
});
