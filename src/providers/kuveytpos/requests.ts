// KuveytPOS's requests, field for field and in the order mewebstudio/pos src/DataMapper/
// RequestDataMapper/KuveytPosRequestDataMapper.php builds them (its vectors: test/kuveytpos/
// vectors.test.ts). Amounts travel in minor units ("1001" for 10.01), currencies as four-digit
// ISO 4217 numbers ("0949"), one instalment as "0", the expiry as YY and MM. Every request names
// the shop (MerchantId), the customer number (CustomerId) and the API user (UserName), and is
// signed (HashData, hash.ts) with the API user's password, which never travels.
import { ISO_NUMERIC_CURRENCY } from '../settings-fields.ts';
import type { CardData, Currency } from '../types.ts';
import { requestHash } from './hash.ts';
import type { KuveytCredentials } from './settings.ts';
import type { KuveytMessage, KuveytRequest } from './xml.ts';

export const API_VERSION = 'TDV2.0.0';

/** The currencies KuveytPOS takes (mewebstudio's currency map); GBP is refused before any call. */
const CURRENCY_CODE: Readonly<Partial<Record<Currency, string>>> = { TRY: '0949', USD: '0840', EUR: '0978' };

/** The four-digit code of a currency KuveytPOS takes; RangeError for another. */
export function currencyCode(currency: Currency): string {
  const code = CURRENCY_CODE[currency];
  if (code === undefined) throw new RangeError(`KuveytPOS does not take ${currency}`);
  return code;
}

/** The three-digit form the bank's answers use ("949"), from either form. */
export const shortCurrency = (code: string): string => code.replace(/^0+(?=\d{3}$)/, '');

export const currencyOfCode = (code: string): Currency | undefined =>
  (Object.keys(ISO_NUMERIC_CURRENCY) as Currency[]).find((c) => CURRENCY_CODE[c] !== undefined && ISO_NUMERIC_CURRENCY[c] === shortCurrency(code));

/** Minor units as KuveytPOS's amount; RangeError for zero or less. */
export function kuveytAmount(minor: bigint): string {
  if (minor <= 0n) throw new RangeError('KuveytPOS takes only a positive amount');
  return minor.toString();
}

/** The inquiry's decimal ("10.01") as minor units; null when it is not one. */
export function minorOfDecimal(decimal: string): bigint | null {
  const match = /^(\d{1,15})(?:[.,](\d{1,2}))?$/.exec(decimal.trim());
  return match ? BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0')) : null;
}

/** One payment is "0", as mewebstudio maps it; 2..n are themselves. */
export const installmentCount = (n: number): string => (n > 1 ? String(n) : '0');

/** KuveytPOS's card type, from the number (mewebstudio's caller declares it): Visa, MasterCard or Troy; '' for another. */
export function cardType(number: string): string {
  if (number.startsWith('4')) return 'Visa';
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MasterCard';
  if (number.startsWith('9792') || number.startsWith('65')) return 'Troy';
  return '';
}

export interface RequestContext {
  credentials: KuveytCredentials;
}

const account = ({ credentials: c }: RequestContext) => ({ MerchantId: c.merchant_id, CustomerId: c.customer_id, UserName: c.user_name });

const sign = <M extends { MerchantId: string; UserName: string; HashData: string }>(message: M, ctx: RequestContext): M => ({ ...message, HashData: requestHash(message, ctx.credentials.password) });

/** The card as KuveytPOS takes it; the enrollment also names its type (mewebstudio's non-3D sale does not). */
const cardFields = (card: CardData, type?: string) => ({
  CardHolderName: card.holderName,
  ...(type === undefined ? {} : { CardType: type }),
  CardNumber: card.number,
  CardExpireDateYear: card.expiryYear.slice(-2),
  CardExpireDateMonth: card.expiryMonth.padStart(2, '0'),
  CardCVV2: card.securityCode ?? '',
});

export interface PaymentFields {
  merchantOrderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
}

const money = (p: PaymentFields) => ({ InstallmentCount: installmentCount(p.installmentNumber), Amount: kuveytAmount(p.amount), DisplayAmount: kuveytAmount(p.amount), CurrencyCode: currencyCode(p.currency) });

/** The 3-D enrollment posted to ThreeDModelPayGate: the card, the amount and where the bank sends the shopper back. */
export function enrollmentRequest(p: PaymentFields & { card: CardData; okUrl: string; failUrl: string; clientIp: string }, ctx: RequestContext): KuveytRequest {
  const message = {
    ...account(ctx),
    APIVersion: API_VERSION,
    TransactionType: 'Sale',
    TransactionSecurity: '3',
    ...money(p),
    MerchantOrderId: p.merchantOrderId,
    OkUrl: p.okUrl,
    FailUrl: p.failUrl,
    DeviceData: { ClientIP: p.clientIp },
    ...cardFields(p.card, cardType(p.card.number)),
    HashData: '',
  };
  return { kind: 'message', message: sign(message, ctx) };
}

/**
 * The provision (ThreeDModelProvisionGate) after an authenticated callback: the MD stands for the
 * card. mewebstudio copies amount, currency and instalments from the callback's VPosMessage,
 * which the bank does not sign; the payment's own are sent here.
 */
export function provisionRequest(p: PaymentFields & { md: string; clientIp: string }, ctx: RequestContext): KuveytRequest {
  const { InstallmentCount, Amount, DisplayAmount, CurrencyCode } = money(p);
  const message = {
    ...account(ctx),
    APIVersion: API_VERSION,
    HashData: '',
    CustomerIPAddress: p.clientIp,
    KuveytTurkVPosAdditionalData: { AdditionalData: { Key: 'MD', Data: p.md } },
    TransactionType: 'Sale',
    InstallmentCount,
    Amount,
    DisplayAmount,
    CurrencyCode,
    MerchantOrderId: p.merchantOrderId,
    TransactionSecurity: '3',
  };
  return { kind: 'message', message: sign(message, ctx) };
}

/** A sale without 3-D Secure (Non3DPayGate). */
export function saleRequest(p: PaymentFields & { card: CardData }, ctx: RequestContext): KuveytRequest {
  const { InstallmentCount, Amount, DisplayAmount, CurrencyCode } = money(p);
  const message = {
    ...account(ctx),
    APIVersion: API_VERSION,
    HashData: '',
    TransactionType: 'Sale',
    TransactionSecurity: '1',
    MerchantOrderId: p.merchantOrderId,
    Amount,
    DisplayAmount,
    CurrencyCode,
    InstallmentCount,
    ...cardFields(p.card),
  };
  return { kind: 'message', message: sign(message, ctx) };
}

/** The SOAP request's frame: every call names the customer and the merchant and carries a signed VPosMessage. */
function soapRequest(ctx: RequestContext, head: KuveytMessage, vpos: Record<string, string>): KuveytMessage {
  const { MerchantId, CustomerId, UserName } = account(ctx);
  const frame = { IsFromExternalNetwork: '1', BusinessKey: '0', ResourceId: '0', ActionId: '0', LanguageId: '0', CustomerId, MailOrTelephoneOrder: '1' };
  const message = { APIVersion: API_VERSION, InstallmentMaturityCommisionFlag: '0', HashData: '', MerchantId, SubMerchantId: '0', CustomerId, UserName, CardType: 'Visa', BatchID: '0', ...vpos };
  return { ...frame, ...head, VPosMessage: sign(message, ctx) };
}

const zeros = { FECAmount: '0' };
const trailer = { QeryId: '0', DebtId: '0', SurchargeAmount: '0', SGKDebtAmount: '0', TransactionSecurity: '1' };

export interface SaleOf {
  merchantOrderId: string;
  orderId: string;
  rrn: string;
  stan: string;
  provision: string;
}

const saleFields = (ctx: RequestContext, s: SaleOf, amount: string) => ({ Amount: amount, MerchantId: ctx.credentials.merchant_id, OrderId: s.orderId, RRN: s.rrn, Stan: s.stan, ProvisionNumber: s.provision });

/** A refund: DrawBack for the sale's whole amount, PartialDrawback for part of it. */
export function refundRequest(p: { sale: SaleOf; amount: bigint; currencyCode: string; whole: boolean }, ctx: RequestContext): KuveytRequest {
  const action = p.whole ? 'DrawBack' : 'PartialDrawback';
  const amount = kuveytAmount(p.amount);
  const vpos = { TransactionType: action, InstallmentCount: '0', Amount: amount, DisplayAmount: '0', CancelAmount: amount, MerchantOrderId: p.sale.merchantOrderId, ...zeros, CurrencyCode: p.currencyCode, ...trailer };
  return { kind: 'soap', action, request: soapRequest(ctx, saleFields(ctx, p.sale, amount), vpos) };
}

/** A cancel (SaleReversal) of the whole sale. */
export function cancelRequest(p: { sale: SaleOf; amount: bigint; currencyCode: string }, ctx: RequestContext): KuveytRequest {
  const amount = kuveytAmount(p.amount);
  const vpos = { TransactionType: 'SaleReversal', InstallmentCount: '0', Amount: amount, DisplayAmount: amount, CancelAmount: amount, MerchantOrderId: p.sale.merchantOrderId, ...zeros, CurrencyCode: p.currencyCode, ...trailer };
  return { kind: 'soap', action: 'SaleReversal', request: soapRequest(ctx, saleFields(ctx, p.sale, amount), vpos) };
}

/** Istanbul's wall clock (UTC+3, no daylight saving since 2016) as the inquiry wants it: 2024-04-24T16:03:42. */
const istanbul = (at: Date): string => new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 19);

const DAY = 86_400_000;

/**
 * The order inquiry (GetMerchantOrderDetail) by our order id: OrderId 0 asks for every order of
 * that MerchantOrderId in the dates (mewebstudio: a year back; the bank refuses a request without
 * dates). The end is a day ahead, so a clock a little behind the bank's still finds a new order.
 */
export function statusRequest(p: { merchantOrderId: string; currencyCode: string; now: Date }, ctx: RequestContext): KuveytRequest {
  const head = { Amount: '0', MerchantId: ctx.credentials.merchant_id, MerchantOrderId: p.merchantOrderId, OrderId: '0', StartDate: istanbul(new Date(p.now.getTime() - 360 * DAY)), EndDate: istanbul(new Date(p.now.getTime() + DAY)), TransactionType: '0' };
  const vpos = { TransactionType: 'GetMerchantOrderDetail', InstallmentCount: '0', Amount: '0', DisplayAmount: '0', CancelAmount: '0', MerchantOrderId: p.merchantOrderId, CurrencyCode: p.currencyCode, ...zeros, ...trailer };
  return { kind: 'soap', action: 'GetMerchantOrderDetail', request: soapRequest(ctx, head, vpos) };
}
