import { str, type ApiContext } from './api.ts';
import { lookupBin } from './cards.ts';
import { ERRORS, IyziFailure } from './errors.ts';
import { toAmount, toMinor } from './money.ts';

/** Installment interest the emulator applies, per installment count (credit cards only). */
const INSTALLMENT_RATES: Record<number, number> = { 1: 0, 2: 0.0303, 3: 0.0454, 6: 0.0833, 9: 0.1192, 12: 0.1551 };

function binOf(ctx: ApiContext) {
  const binNumber = str(ctx.body.binNumber);
  if (!binNumber) throw new IyziFailure(ERRORS.required('binNumber'));
  if (!/^\d{6,8}$/.test(binNumber)) throw new IyziFailure(ERRORS.invalidField('binNumber'));
  const profile = lookupBin(binNumber);
  if (!profile) throw new IyziFailure(ERRORS.binNotFound);
  return { binNumber: binNumber.slice(0, 6), profile };
}

/** POST /payment/bin/check */
export function binCheck(ctx: ApiContext): Record<string, unknown> {
  const { binNumber, profile } = binOf(ctx);
  return {
    binNumber,
    cardType: profile.cardType,
    cardAssociation: profile.cardAssociation,
    cardFamily: profile.cardFamily,
    bankName: profile.bankName,
    bankCode: profile.bankCode,
    commercial: 0,
  };
}

/** POST /payment/iyzipos/installment — installment prices for a BIN and price. */
export function installmentInfo(ctx: ApiContext): Record<string, unknown> {
  const price = toMinor(ctx.body.price, 'price');
  const { binNumber, profile } = binOf(ctx);
  const counts = profile.cardType === 'CREDIT_CARD' ? [1, 2, 3, 6, 9, 12] : [1];
  return {
    installmentDetails: [
      {
        binNumber,
        price: toAmount(price),
        cardType: profile.cardType,
        cardAssociation: profile.cardAssociation,
        cardFamilyName: profile.cardFamily,
        force3ds: 0,
        bankCode: profile.bankCode,
        bankName: profile.bankName,
        forceCvc: 0,
        commercial: 0,
        dccEnabled: 0,
        installmentPrices: counts.map((n) => {
          const total = Math.round(price * (1 + INSTALLMENT_RATES[n]));
          return { installmentNumber: n, totalPrice: toAmount(total), installmentPrice: toAmount(Math.round(total / n)) };
        }),
      },
    ],
  };
}
