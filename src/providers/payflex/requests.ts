// PayFlex's requests, field for field as mewebstudio/pos src/DataMapper/RequestDataMapper/
// PayFlexV4PosRequestDataMapper.php builds them (its vectors: test/payflex/vectors.test.ts): the
// MPI's enrollment check (form fields), the VPOS's sale, 3-D sale, refund and cancel (a flat
// <VposRequest>) and the search (<SearchRequest>). Amounts travel with two decimals ("100.00"),
// currencies as ISO 4217 numbers, one instalment as no NumberOfInstallments (the enrollment: no
// InstallmentCount), the VPOS's expiry as YYYYMM, the MPI's as YYMM.
// Two additions of ours, each said where it is made: the enrollment's SessionInfo (the gateway's
// seal, hash.ts) and a TransactionId of ours on refunds and cancels (found again by the search).
import { ISO_NUMERIC_CURRENCY } from '../settings-fields.ts';
import { schemeFromNumber } from '../simulator.ts';
import type { CardData, CardScheme, Currency } from '../types.ts';
import type { PayflexCredentials } from './settings.ts';
import type { PayflexFields } from './xml.ts';

/**
 * The address the VPOS asks for with every request. The contract gives the shopper's address with
 * a payment only; a refund, a cancel and the 3-D sale (after the shopper's browser has gone
 * through the bank) have none, so they name the gateway itself.
 */
export const NO_CLIENT_IP = '127.0.0.1';

/** "ECommerce": the only device source the gateway sends. */
const ECOMMERCE = '0';

/** Minor units as PayFlex's decimal with two places: 10025 -> "100.25", 10000 -> "100.00". Throws RangeError for zero or less. */
export function payflexAmount(minor: bigint): string {
  if (minor <= 0n) throw new RangeError('PayFlex takes only a positive amount');
  return `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
}

/** PayFlex's decimal ("90.50", "1.01", "100") back to minor units; null when it is not one. */
export function minorOf(decimal: string): bigint | null {
  const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(decimal);
  if (!match) return null;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

/** 0 or 1 instalment is a single payment ("0"); 2..n are themselves. */
export const installmentCount = (n: number): string => (n > 1 ? String(n) : '0');

/** The card's expiry as the MPI takes it (YYMM) and as the VPOS does (YYYYMM). */
export const mpiExpiry = (card: CardData): string => `${card.expiryYear.slice(-2)}${card.expiryMonth.padStart(2, '0')}`;
export const vposExpiry = (yymm: string): string => `20${yymm}`;

/** BrandName: 100 Visa, 200 Mastercard, 300 Troy, 400 American Express; none for another scheme. */
const BRANDS: Partial<Record<CardScheme, string>> = { visa: '100', mastercard: '200', troy: '300', american_express: '400' };

export function brandOf(cardNumber: string): string | undefined {
  const scheme = schemeFromNumber(cardNumber);
  return scheme === null ? undefined : BRANDS[scheme];
}

const account = (c: PayflexCredentials) => ({ MerchantId: c.merchant_id, Password: c.merchant_password, TerminalNo: c.terminal_no });

export interface EnrollmentInput {
  enrollmentId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  card: CardData;
  callbackUrl: string;
  /** The gateway's seal over what the MPI will post back (hash.ts). */
  sessionInfo?: string;
}

/** The MPI's enrollment check: is the card in 3-D Secure, and where is its ACS (SuccessUrl = FailureUrl = the callback). */
export function enrollmentRequest(p: EnrollmentInput, c: PayflexCredentials): Record<string, string> {
  const brand = brandOf(p.card.number);
  return {
    MerchantId: c.merchant_id,
    MerchantPassword: c.merchant_password,
    MerchantType: c.merchant_type,
    PurchaseAmount: payflexAmount(p.amount),
    VerifyEnrollmentRequestId: p.enrollmentId,
    Currency: ISO_NUMERIC_CURRENCY[p.currency],
    SuccessUrl: p.callbackUrl,
    FailureUrl: p.callbackUrl,
    Pan: p.card.number,
    ExpiryDate: mpiExpiry(p.card),
    ...(brand ? { BrandName: brand } : {}),
    IsRecurring: 'false',
    ...(p.installmentNumber > 1 ? { InstallmentCount: installmentCount(p.installmentNumber) } : {}),
    ...(c.merchant_type !== '0' && c.sub_merchant_id ? { SubMerchantId: c.sub_merchant_id } : {}),
    ...(p.sessionInfo ? { SessionInfo: p.sessionInfo } : {}),
  };
}

export interface SaleInput {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  card: CardData;
  clientIp?: string;
}

const instalments = (n: number): Record<string, string> => (n > 1 ? { NumberOfInstallments: installmentCount(n) } : {});

/** A sale without 3-D Secure. */
export function saleRequest(p: SaleInput, c: PayflexCredentials): PayflexFields {
  return {
    ...account(c),
    TransactionType: 'Sale',
    OrderId: p.orderId,
    CurrencyAmount: payflexAmount(p.amount),
    CurrencyCode: ISO_NUMERIC_CURRENCY[p.currency],
    ClientIp: p.clientIp ?? NO_CLIENT_IP,
    TransactionDeviceSource: ECOMMERCE,
    Pan: p.card.number,
    Expiry: vposExpiry(mpiExpiry(p.card)),
    Cvv: p.card.securityCode ?? '',
    ...instalments(p.installmentNumber),
  };
}

export interface ThreeDSaleInput {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  /** What the MPI posted back: its authentication and the card it authenticated. */
  eci: string;
  cavv: string;
  enrollmentId: string;
  pan: string;
  /** YYMM, as the MPI posts it. */
  expiry: string;
  holderName?: string;
  cvv?: string;
  clientIp?: string;
}

/**
 * The 3-D sale with the MPI's result. PayFlex wants the card again: the number and expiry are the
 * ones the MPI posted back; mewebstudio also sends the holder's name and the CVV, which the gateway
 * no longer has at this step (it keeps no card data), so they go only when given.
 */
export function threeDSaleRequest(p: ThreeDSaleInput, c: PayflexCredentials): PayflexFields {
  return {
    ...account(c),
    TransactionType: 'Sale',
    TransactionId: p.orderId,
    CurrencyAmount: payflexAmount(p.amount),
    CurrencyCode: ISO_NUMERIC_CURRENCY[p.currency],
    ECI: p.eci,
    CAVV: p.cavv,
    MpiTransactionId: p.enrollmentId,
    OrderId: p.orderId,
    ClientIp: p.clientIp ?? NO_CLIENT_IP,
    TransactionDeviceSource: ECOMMERCE,
    ...(p.holderName !== undefined ? { CardHoldersName: p.holderName } : {}),
    ...(p.cvv !== undefined ? { Cvv: p.cvv } : {}),
    Pan: p.pan,
    Expiry: vposExpiry(p.expiry),
    ...instalments(p.installmentNumber),
  };
}

export interface ReversalInput {
  /** The sale's TransactionId at the bank. */
  saleTransactionId: string;
  /** Ours for this refund or cancel, so the search finds it after a lost answer (mewebstudio sends none). */
  transactionId?: string;
  clientIp?: string;
}

/** A refund of part or all of the sale (the same request either way). */
export function refundRequest(p: ReversalInput & { amount: bigint }, c: PayflexCredentials): PayflexFields {
  return {
    MerchantId: c.merchant_id,
    Password: c.merchant_password,
    TransactionType: 'Refund',
    ReferenceTransactionId: p.saleTransactionId,
    ClientIp: p.clientIp ?? NO_CLIENT_IP,
    CurrencyAmount: payflexAmount(p.amount),
    ...(p.transactionId ? { TransactionId: p.transactionId } : {}),
  };
}

/** A cancel (void) of the sale. */
export function cancelRequest(p: ReversalInput, c: PayflexCredentials): PayflexFields {
  return {
    MerchantId: c.merchant_id,
    Password: c.merchant_password,
    TransactionType: 'Cancel',
    ReferenceTransactionId: p.saleTransactionId,
    ClientIp: p.clientIp ?? NO_CLIENT_IP,
    ...(p.transactionId ? { TransactionId: p.transactionId } : {}),
  };
}

/**
 * The search (Search.aspx): by TransactionId when given (the bank then ignores OrderId), else by
 * OrderId, which answers the order's successful transaction, or its last one when none succeeded.
 */
export function searchRequest(p: { orderId: string; transactionId?: string }, c: PayflexCredentials): PayflexFields {
  return {
    MerchantCriteria: { HostMerchantId: c.merchant_id, MerchantPassword: c.merchant_password },
    TransactionCriteria: { TransactionId: p.transactionId ?? '', OrderId: p.orderId, AuthCode: '' },
  };
}
