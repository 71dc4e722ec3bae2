// Every call the gateway makes to a provider about a payment, refund or card, as a record for
// merchants and support: which account, which operation, when, how long, how it ended, and what
// the provider and the gateway said. The registry hands out connectors wrapped here, so no caller
// can forget to record, and no caller records twice. Quotes (binLookup, installments) pass through
// unrecorded, and so does the callback check (verifyCallback) unless it asks the bank
// (Connector.callbackCheckAsksBank, PosNet): then it is recorded as the first call of the 3-D
// completion (`complete3D`, under the 3-D start's key), as mewebstudio/pos's PosNet completes a
// 3-D payment with two calls, the callback's opening and the sale.
//
// Only the fields of ProviderAttemptRecord leave this module: never a card, a security code or the
// provider's full answer. The provider's text is cut to 255 characters with any card number in it
// masked, in case a provider echoes what it was sent.
import { maskCardNumbers } from '../domain/card-masking.ts';
import { ProviderTimeoutError, type CallbackCheck, type Connector } from './types.ts';

export type AttemptOperation = 'start3D' | 'complete3D' | 'charge' | 'paymentStatus' | 'refund' | 'refundStatus' | 'cancel' | 'storeCard' | 'deleteCard';
export type AttemptOutcome = 'succeeded' | 'redirect' | 'declined' | 'error' | 'timeout' | 'unknown';

export interface ProviderAttemptRecord {
  workspaceId: string;
  paymentAccountId: string;
  provider: string;
  operation: AttemptOperation;
  idempotencyKey: string | null;
  /** From the key: `<payment id>:authorise|charge|complete|store[:n]`. */
  paymentId: string | null;
  /** From the key: `refund:<refund id>[:n]` or `cancel:<refund id>[:n]`; the sink finds its payment. */
  refundId: string | null;
  startedAt: Date;
  durationMs: number;
  outcome: AttemptOutcome;
  providerCode: string | null;
  providerMessage: string | null;
  errorCode: string | null;
}

/** Where the records go, and the clock that times the calls. `record` must not throw or wait. */
export interface AttemptSink {
  now(): Date;
  record(attempt: ProviderAttemptRecord): void;
}

/** The account a connector was built for. */
export interface RecordedAccount {
  id: string;
  workspaceId: string;
}

export const PROVIDER_MESSAGE_MAX = 255;
const PROVIDER_CODE_MAX = 64;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
// A later attempt of the same step on another account carries a suffix: `<payment id>:charge:2`.
const PAYMENT_KEY = new RegExp(`^(${UUID}):(?:authorise|charge|complete|store)(?::\\d+)?$`, 'i');
const REFUND_KEY = new RegExp(`^(?:refund|cancel):(${UUID})(?::\\d+)?$`, 'i');

/** The payment or refund an idempotency key names (both null for keys about neither). */
export function subjectOfKey(key: string | null): { paymentId: string | null; refundId: string | null } {
  const payment = key ? PAYMENT_KEY.exec(key) : null;
  if (payment) return { paymentId: payment[1]!.toLowerCase(), refundId: null };
  const refund = key ? REFUND_KEY.exec(key) : null;
  return { paymentId: null, refundId: refund ? refund[1]!.toLowerCase() : null };
}

/** What any of the connector's answers says, as a record's outcome and codes. */
type Answer = { status: string; code?: string; providerCode?: string; providerMessage?: string };

const OUTCOME_OF: Record<string, AttemptOutcome> = {
  succeeded: 'succeeded',
  stored: 'succeeded',
  deleted: 'succeeded',
  redirect: 'redirect',
  declined: 'declined',
  error: 'error',
  unknown: 'unknown',
};

const bounded = (text: string | undefined, max: number): string | null => (text ? maskCardNumbers(text).slice(0, max) : null);

type Ending = Pick<ProviderAttemptRecord, 'outcome' | 'providerCode' | 'providerMessage' | 'errorCode'>;

function answered(res: Answer): Ending {
  return {
    outcome: OUTCOME_OF[res.status] ?? 'unknown',
    providerCode: bounded(res.providerCode, PROVIDER_CODE_MAX),
    providerMessage: bounded(res.providerMessage, PROVIDER_MESSAGE_MAX),
    errorCode: res.code ?? null,
  };
}

/** A callback check that asked the bank: authenticated is its success, a failed authentication its decline, a rejection an error with its reason. */
function checked(check: CallbackCheck): Ending {
  if (check.status === 'rejected') return { outcome: 'error', providerCode: null, providerMessage: bounded(check.reason, PROVIDER_MESSAGE_MAX), errorCode: null };
  if (!check.authenticated) return answered(check.failure);
  return { outcome: 'succeeded', providerCode: null, providerMessage: null, errorCode: null };
}

const REFUND_OPERATIONS: ReadonlySet<AttemptOperation> = new Set(['refund', 'cancel', 'refundStatus']);

/** A call that threw: a timeout (the outcome is unknown to the gateway) or any other failure. */
function threw(operation: AttemptOperation, err: unknown): Ending {
  if (err instanceof ProviderTimeoutError) {
    // The codes the domain gives a payment or a refund whose bank did not answer.
    return { outcome: 'timeout', providerCode: null, providerMessage: null, errorCode: REFUND_OPERATIONS.has(operation) ? 'provider_timeout_refund' : 'provider_timeout' };
  }
  return { outcome: 'error', providerCode: null, providerMessage: null, errorCode: null };
}

/** The connector with each payment, refund and card call timed and recorded once it answers or throws. */
export function recordAttempts(connector: Connector, account: RecordedAccount, sink: AttemptSink): Connector {
  const timed = <R>(operation: AttemptOperation, idempotencyKey: string | null, call: () => Promise<R> | R, ending: (res: R) => Ending): Promise<R> => {
    const startedAt = sink.now();
    const record = (end: Ending) =>
      sink.record({
        workspaceId: account.workspaceId,
        paymentAccountId: account.id,
        provider: connector.provider,
        operation,
        idempotencyKey,
        ...subjectOfKey(idempotencyKey),
        startedAt,
        durationMs: Math.max(0, sink.now().getTime() - startedAt.getTime()),
        ...end,
      });
    // A connector that throws before its first await fails the same way as one that rejects.
    return new Promise<R>((resolve) => resolve(call())).then(
      (res) => {
        record(ending(res));
        return res;
      },
      (err: unknown) => {
        record(threw(operation, err));
        throw err;
      },
    );
  };
  return {
    provider: connector.provider,
    capabilities: connector.capabilities,
    chargesAtGate: connector.chargesAtGate,
    binLookup: (bin) => connector.binLookup(bin),
    installments: (input) => connector.installments(input),
    callbackCheckAsksBank: connector.callbackCheckAsksBank ?? false,
    verifyCallback: (payment, fields) =>
      connector.callbackCheckAsksBank ? timed('complete3D', payment.startKey, () => connector.verifyCallback(payment, fields), checked) : connector.verifyCallback(payment, fields),
    start3D: (input) => timed('start3D', input.idempotencyKey, () => connector.start3D(input), answered),
    complete3D: (input) => timed('complete3D', input.idempotencyKey, () => connector.complete3D(input), answered),
    charge: (input) => timed('charge', input.idempotencyKey, () => connector.charge(input), answered),
    paymentStatus: (input) => timed('paymentStatus', input.idempotencyKey, () => connector.paymentStatus(input), answered),
    refund: (input) => timed('refund', input.idempotencyKey, () => connector.refund(input), answered),
    refundStatus: (input) => timed('refundStatus', input.idempotencyKey, () => connector.refundStatus(input), answered),
    cancel: (input) => timed('cancel', input.idempotencyKey, () => connector.cancel(input), answered),
    storeCard: (input) => timed('storeCard', input.idempotencyKey, () => connector.storeCard(input), answered),
    deleteCard: (input) => timed('deleteCard', null, () => connector.deleteCard(input), answered),
  };
}
