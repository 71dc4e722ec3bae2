// A deterministic bank for tests and demos: the card number picks the outcome (docs/decisions.md,
// "The simulator's table"). It is a connector like any other: its 3D Secure step is its own ACS
// page (simulator-acs.ts), which posts a signed answer to the payment's callback address. Its
// decisions keep no state, so several gateway processes and restarts agree: the behaviour a card was given travels inside the opaque references the simulator hands
// out. Only its status inquiries read a memory: the books below, of the answers it gave.
// References never hold card digits; their id part is derived from the idempotency key, so a
// retried request gets the same reference back, as a real idempotent bank would do.
import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { firstDigitsOf, lastFourOf, luhnValid } from '../domain/cards.ts';
import {
  ALL_CAPABILITIES,
  ProviderTimeoutError,
  computeInstallments,
  type BinInfo,
  type CallbackCheck,
  type CancelInput,
  type CancelResult,
  type Capability,
  type CardData,
  type CardScheme,
  type ChargeInput,
  type ChargeResult,
  type Complete3DInput,
  type Complete3DResult,
  type Declined,
  type DeleteCardInput,
  type DeleteCardResult,
  type InstallmentOption,
  type InstallmentsInput,
  type PaymentInput,
  type Connector,
  type PaymentStatusInput,
  type PaymentStatusResult,
  type ProviderFailure,
  type RefundInput,
  type RefundResult,
  type RefundStatusInput,
  type RefundStatusResult,
  type Succeeded,
  type Start3DInput,
  type Start3DResult,
  type StoreCardInput,
  type StoreCardResult,
  type ThreeDsPayment,
} from './types.ts';
import { acsAddress, readAcsAnswer, SIMULATOR_BANK, simulatorPages } from './simulator-acs.ts';
import { simulatorSettings, withOutage } from './simulator-outage.ts';
import type { ConnectorDeps, ProviderDefinition } from './registry.ts';

type Behaviour =
  | 'approved'
  | 'insufficient-funds'
  | 'expired-card'
  | 'provider-error'
  | 'timeout'
  | 'no-storage'
  | 'no-refund'
  | 'silent'
  | 'slow'
  | 'silent-refund';

const BEHAVIOURS: readonly Behaviour[] = [
  'approved',
  'insufficient-funds',
  'expired-card',
  'provider-error',
  'timeout',
  'no-storage',
  'no-refund',
  'silent',
  'slow',
  'silent-refund',
];

const TEST_CARDS: Readonly<Record<string, Behaviour>> = {
  '4111111111111111': 'approved',
  '5555555555554444': 'approved',
  '9792030000000004': 'approved',
  '9792030000000018': 'approved',
  '4000000000000002': 'insufficient-funds',
  '4000000000000069': 'expired-card',
  '4000000000000119': 'provider-error',
  '4000000000009995': 'timeout',
  '4000000000000341': 'no-storage',
  '5105105105105100': 'no-refund',
  // Takes the call and never answers it, nor any status inquiry about it (a bank that went dark).
  '4000000000000127': 'silent',
  // Approves, but takes SLOW_ANSWER_MS to answer a charge or a 3D completion (a gateway can be
  // stopped while the call is in flight).
  '4000000000000259': 'slow',
  // Approves; its refunds and cancels, and status inquiries about them, are never answered.
  '4000000000000267': 'silent-refund',
};

/** How long the slow card's bank takes to answer, in real time (the gateway's clock does not move it). */
export const SLOW_ANSWER_MS = 3_000;
const answerSlowly = () => new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));

type KnownBin = Omit<BinInfo, 'bin'>;

const SIM_BANK = { issuerName: SIMULATOR_BANK, issuerCode: '0001', isCommercial: false } as const;
const SIM_PARTICIPATION = { issuerName: 'Simülasyon Katılım Bankası', issuerCode: '0002', isCommercial: false } as const;

const VISA_CREDIT: KnownBin = { ...SIM_BANK, scheme: 'visa', type: 'credit', program: 'Simülasyon Bonus' };
const MASTERCARD_CREDIT: KnownBin = { ...SIM_PARTICIPATION, scheme: 'mastercard', type: 'credit', program: 'Simülasyon World' };
const TROY_DEBIT: KnownBin = { ...SIM_BANK, scheme: 'troy', type: 'debit', program: 'Simülasyon Troy' };
const MASTERCARD_DEBIT: KnownBin = { ...SIM_PARTICIPATION, scheme: 'mastercard', type: 'debit', program: 'Simülasyon Maestro' };

// Each card's 6- and 8-digit prefixes. The 4000000000000xxx test cards share one BIN, so it
// answers visa credit even for the debit timeout card, like a bank that shares a BIN range.
const BINS: Readonly<Record<string, KnownBin>> = {
  '411111': VISA_CREDIT,
  '41111111': VISA_CREDIT,
  '400000': VISA_CREDIT,
  '40000000': VISA_CREDIT,
  '555555': MASTERCARD_CREDIT,
  '55555555': MASTERCARD_CREDIT,
  '979203': TROY_DEBIT,
  '97920300': TROY_DEBIT,
  '510510': MASTERCARD_DEBIT,
  '51051051': MASTERCARD_DEBIT,
};

const MESSAGES = {
  insufficient_funds: 'Yetersiz bakiye',
  expired_card: 'Kartın süresi dolmuş',
  provider_error: 'Banka sistem hatası',
  card_storage_refused: 'Kart saklama isteği banka tarafından reddedildi',
  refund_rejected: 'İade veya iptal isteği banka tarafından reddedildi',
  invalid_card_number: 'Geçersiz kart numarası',
  invalid_expiry: 'Geçersiz son kullanma tarihi',
  invalid_amount: 'Geçersiz tutar',
  invalid_installment: 'Geçersiz taksit sayısı',
  unknown_reference: 'Bilinmeyen işlem referansı',
  '3ds_failed': '3D doğrulama başarısız',
} as const;

type Code = keyof typeof MESSAGES;

const declined = (code: Code): Declined => ({ status: 'declined', code, message: MESSAGES[code] });
const failure = (code: Code): ProviderFailure => ({ status: 'error', code, message: MESSAGES[code] });

/** The card scheme from the number's leading digits, or null when no known range matches. */
export function schemeFromNumber(number: string): CardScheme | null {
  const prefix = (length: number): number => Number(number.slice(0, length));
  if (number.startsWith('9792')) return 'troy';
  if (number.startsWith('4')) return 'visa';
  if ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720)) return 'mastercard';
  if (['34', '37'].includes(number.slice(0, 2))) return 'american_express';
  if (number.startsWith('6011') || number.startsWith('65')) return 'discover';
  if (['36', '38'].includes(number.slice(0, 2))) return 'diners_club';
  if (number.startsWith('35')) return 'jcb';
  if (number.startsWith('62')) return 'unionpay';
  if (number.startsWith('50') || (prefix(2) >= 56 && prefix(2) <= 58) || number.startsWith('6')) return 'maestro';
  return null;
}

// The bank sits in Turkey: a card stays valid until the end of its month there.
function isExpired(month: number, year: number, now: Date): boolean {
  const today = monthInTurkey(now);
  return year < today.year || (year === today.year && month < today.month);
}

/**
 * The year and month in Istanbul at `now`, worked out once per minute (zone offsets are whole
 * minutes): a time-zone conversion costs about 1 % of a payment's CPU, and every charge asks.
 */
const monthInTurkey = (() => {
  let minute = NaN;
  let month = { year: 0, month: 0 };
  return (now: Date) => {
    const current = Math.floor(now.getTime() / 60_000);
    if (current !== minute) {
      const there = DateTime.fromJSDate(now, { zone: 'Europe/Istanbul' });
      minute = current;
      month = { year: there.year, month: there.month };
    }
    return month;
  };
})();

function parseExpiry(card: CardData): { month: number; year: number } | null {
  if (!/^\d{1,2}$/.test(card.expiryMonth) || !/^(\d{2}|\d{4})$/.test(card.expiryYear)) return null;
  const month = Number(card.expiryMonth);
  const year = card.expiryYear.length === 2 ? 2000 + Number(card.expiryYear) : Number(card.expiryYear);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

function referenceId(operation: string, idempotencyKey: string): string {
  const hex = createHash('sha256').update(`${operation}\n${idempotencyKey}`).digest('hex');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20, 32)].join('-');
}

const REFERENCE = /^sim_(pay|card)_([a-z-]+)_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function behaviourOf(reference: string, kind: 'pay' | 'card'): Behaviour | null {
  const match = REFERENCE.exec(reference);
  if (!match || match[1] !== kind) return null;
  return BEHAVIOURS.find((b) => b === match[2]) ?? null;
}

/** The outcome of an authorisation once the bank actually decides on the card. */
function authorisationOutcome(behaviour: Behaviour, operation: string): Declined | ProviderFailure | null {
  switch (behaviour) {
    case 'insufficient-funds':
      return declined('insufficient_funds');
    case 'expired-card':
      return declined('expired_card');
    case 'provider-error':
      return failure('provider_error');
    case 'timeout':
    case 'silent':
      // Thrown at once rather than after a sleep: the caller only needs to see "no answer".
      throw new ProviderTimeoutError('simulator', operation);
    default:
      return null;
  }
}

/** How many answers the books keep, oldest forgotten first: hours of calls under load, bounded memory. */
export const BOOKS_LIMIT = 100_000;

/**
 * The bank's books: the final answer it gave to each payment, refund and cancel call, by the
 * call's idempotency key, so a status inquiry about a call whose answer the gateway lost (it
 * stopped, or its database did, before recording it) tells what happened. They live in the
 * memory of the process the simulator runs in: a gateway killed takes its simulated bank with it,
 * and the new one's books are empty (the call is then unknown to the bank, as if never received).
 */
class Books {
  /** `silent`: a call of the silent card, about which the bank answers nothing. */
  private readonly answers = new Map<string, Succeeded | Declined | 'silent'>();

  record<T extends Succeeded | Declined | ProviderFailure>(idempotencyKey: string, answer: T): T {
    // A failure of the bank's own system refused the call as surely as a decline.
    this.keep(idempotencyKey, answer.status === 'error' ? { status: 'declined', code: answer.code, message: answer.message } : answer);
    return answer;
  }

  silence(idempotencyKey: string): void {
    this.keep(idempotencyKey, 'silent');
  }

  find(idempotencyKey: string): Succeeded | Declined | 'silent' | undefined {
    return this.answers.get(idempotencyKey);
  }

  private keep(idempotencyKey: string, answer: Succeeded | Declined | 'silent'): void {
    if (this.answers.size >= BOOKS_LIMIT) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(idempotencyKey, answer);
  }
}

/** The simulator takes no credentials and no settings. */
const NOTHING = z.object({}).strict();

export const SIMULATOR_ID = 'simulator';

/** The catalog's simulator: every account of it shares one bank (its books) per process. */
export function simulatorProvider(deps: ConnectorDeps): ProviderDefinition {
  const bank = new SimulatorBank(deps);
  return {
    id: SIMULATOR_ID,
    label: 'Simulator (test cards, no real money)',
    capabilities: bank.capabilities,
    credentials: NOTHING as unknown as ProviderDefinition['credentials'],
    settings: simulatorSettings,
    connect: ({ settings }) => withOutage(bank, (settings as z.infer<typeof simulatorSettings>).outage),
    pages: simulatorPages(deps),
  };
}

export class SimulatorBank implements Connector {
  readonly provider = SIMULATOR_ID;
  readonly capabilities: ReadonlySet<Capability> = ALL_CAPABILITIES;
  /** Its ACS only authenticates: complete3D takes the money. */
  readonly chargesAtGate = false;
  private readonly deps: ConnectorDeps;
  private readonly books = new Books();

  constructor(deps: ConnectorDeps) {
    this.deps = deps;
  }

  private now(): Date {
    return this.deps.now();
  }

  async binLookup(bin: string): Promise<BinInfo> {
    // An 8-digit BIN is more specific, but a bank that only knows the 6-digit range still answers.
    const key = bin.length >= 8 && BINS[bin.slice(0, 8)] ? bin.slice(0, 8) : bin.slice(0, 6);
    const known = BINS[key];
    if (!known) {
      return { bin, issuerName: null, issuerCode: null, scheme: null, type: null, program: null, isCommercial: null };
    }
    return { bin: key, ...known };
  }

  async installments(input: InstallmentsInput): Promise<InstallmentOption[]> {
    return computeInstallments(input.amount, input.currency, input.monthlyRatesBp);
  }

  async start3D(input: Start3DInput): Promise<Start3DResult> {
    // The card's own outcome waits for complete3D: the cardholder authenticates first.
    const source = this.resolveSource(input);
    if ('status' in source) return source;
    const providerReference = this.paymentReference(source.behaviour, input.idempotencyKey);
    const digits = input.card ? input.card.number.replace(/\D/g, '') : '';
    const url = acsAddress(this.deps, {
      reference: providerReference,
      callbackUrl: input.callbackUrl,
      frame: input.frameAncestors?.length ? [...input.frameAncestors] : undefined,
      amount: input.amount.toString(),
      currency: input.currency,
      // The page shows the card as the gateway stores it: its BIN and last four digits only.
      card: digits ? `${firstDigitsOf(digits)}•••• ${lastFourOf(digits)}` : '',
    });
    return { status: 'redirect', providerReference, redirect: { kind: 'url', url } };
  }

  /** The ACS's answer: signed by this gateway's simulator key, for this payment's reference. */
  verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
    const answer = readAcsAnswer(this.deps, fields);
    if (!answer) return { status: 'rejected', cause: 'signature', reason: 'signature' };
    if (answer.reference !== payment.providerReference) return { status: 'rejected', cause: 'order', reason: 'other payment' };
    if (answer.outcome === 'decline') return { status: 'verified', authenticated: false, failure: { ...declined('3ds_failed'), providerCode: 'decline' } };
    return { status: 'verified', authenticated: true, data: { outcome: answer.outcome } };
  }

  async complete3D(input: Complete3DInput): Promise<Complete3DResult> {
    const behaviour = behaviourOf(input.payment.providerReference, 'pay');
    if (!behaviour) return failure('unknown_reference');
    if (behaviour === 'silent') this.books.silence(input.idempotencyKey);
    if (behaviour === 'slow') await answerSlowly();
    const answer = authorisationOutcome(behaviour, 'complete3D') ?? { status: 'succeeded', providerReference: input.payment.providerReference };
    return this.books.record(input.idempotencyKey, answer);
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    const source = this.resolveSource(input);
    if ('status' in source) return this.books.record(input.idempotencyKey, source);
    if (source.behaviour === 'silent') this.books.silence(input.idempotencyKey);
    if (source.behaviour === 'slow') await answerSlowly();
    const answer = authorisationOutcome(source.behaviour, 'charge') ?? {
      status: 'succeeded',
      providerReference: this.paymentReference(source.behaviour, input.idempotencyKey),
    };
    return this.books.record(input.idempotencyKey, answer);
  }

  /**
   * What the bank's books say about a call whose answer was lost: the answer it gave, when its
   * books have it. Otherwise it can only tell from a reference it handed out (a 3D start's): the
   * card's own outcome, and for the timeout card that the bank finally approved it. It takes the
   * 3D page as approved, since the button pressed there is what never came back. Without either
   * (a charge that timed out, or one its books never saw) it cannot know the card, so it answers
   * `unknown`, as a bank that never got the call would.
   */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const booked = this.books.find(input.idempotencyKey);
    const behaviour = input.providerReference ? behaviourOf(input.providerReference, 'pay') : null;
    if (booked === 'silent' || behaviour === 'silent') throw new ProviderTimeoutError('simulator', 'paymentStatus');
    if (booked) return booked;
    if (!input.providerReference || !behaviour) return { status: 'unknown' };
    const refused = behaviour === 'timeout' ? null : authorisationOutcome(behaviour, 'paymentStatus');
    if (!refused) return { status: 'succeeded', providerReference: input.providerReference };
    // In the bank's books a payment its own system failed is as refused as a declined one.
    return { status: 'declined', code: refused.code, message: refused.message };
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    if (input.amount <= 0n) return this.books.record(input.idempotencyKey, failure('invalid_amount'));
    return this.reverse(input.providerReference, 'refund', input.idempotencyKey);
  }

  async cancel(input: CancelInput): Promise<CancelResult> {
    return this.reverse(input.providerReference, 'cancel', input.idempotencyKey);
  }

  /** A refund or cancel its books hold, by the call's idempotency key; else it never got it. */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const booked = this.books.find(input.idempotencyKey);
    if (booked === 'silent') throw new ProviderTimeoutError('simulator', 'refundStatus');
    return booked ?? { status: 'unknown' };
  }

  async storeCard(input: StoreCardInput): Promise<StoreCardResult> {
    const checked = this.checkCard(input.card);
    if ('status' in checked) return checked;
    if (checked.behaviour === 'no-storage') return declined('card_storage_refused');
    // Declining cards are still stored: their outcome shows up when the saved card is charged.
    const id = referenceId('storeCard', input.idempotencyKey);
    return { status: 'stored', cardReference: `sim_card_${checked.behaviour}_${id}`, scheme: checked.scheme };
  }

  async deleteCard(input: DeleteCardInput): Promise<DeleteCardResult> {
    return behaviourOf(input.cardReference, 'card') ? { status: 'deleted' } : failure('unknown_reference');
  }

  private paymentReference(behaviour: Behaviour, idempotencyKey: string): string {
    return `sim_pay_${behaviour}_${referenceId('payment', idempotencyKey)}`;
  }

  private reverse(providerReference: string, operation: 'refund' | 'cancel', idempotencyKey: string): RefundResult {
    const behaviour = behaviourOf(providerReference, 'pay');
    if (!behaviour) return this.books.record(idempotencyKey, failure('unknown_reference'));
    if (behaviour === 'silent-refund') {
      this.books.silence(idempotencyKey);
      throw new ProviderTimeoutError('simulator', operation);
    }
    if (behaviour === 'no-refund') return this.books.record(idempotencyKey, declined('refund_rejected'));
    return this.books.record(idempotencyKey, { status: 'succeeded', providerReference: `sim_${operation}_${referenceId(operation, idempotencyKey)}` });
  }

  private resolveSource(input: PaymentInput): { behaviour: Behaviour } | Declined | ProviderFailure {
    if (input.amount <= 0n) return failure('invalid_amount');
    const { installmentNumber: n } = input;
    if (!Number.isInteger(n) || n < 1 || n > 12 || (n > 1 && input.currency !== 'TRY')) {
      return failure('invalid_installment');
    }
    if (input.savedCard) {
      const behaviour = behaviourOf(input.savedCard.cardReference, 'card');
      return behaviour ? { behaviour } : failure('unknown_reference');
    }
    return this.checkCard(input.card);
  }

  private checkCard(card: CardData): { behaviour: Behaviour; scheme: CardScheme | null } | Declined {
    const number = card.number.replace(/[\s-]/g, '');
    const listed = TEST_CARDS[number];
    // The documented troy card (9792030000000004) fails the Luhn check; listed cards keep their
    // documented behaviour, any other number must pass it.
    if (!/^\d{12,19}$/.test(number) || (!listed && !luhnValid(number))) return declined('invalid_card_number');
    const expiry = parseExpiry(card);
    if (!expiry) return declined('invalid_expiry');
    if (isExpired(expiry.month, expiry.year, this.now())) return declined('expired_card');
    const scheme = BINS[number.slice(0, 8)]?.scheme ?? BINS[number.slice(0, 6)]?.scheme ?? schemeFromNumber(number);
    return { behaviour: listed ?? 'approved', scheme };
  }
}
