// Clients paying and refunding through several gateways, as merchants' servers do: each client
// pays, then refunds part of the payment and then the rest, each call on the next gateway in turn,
// and sends a call answered 503 (or not answered) again with the same Idempotency-Key after a short
// pause. Every answer is kept with its time, so a test can say what was answered while the database
// had no primary, and how long after an event the first 200 came.
import { call, type MerchantCredentials } from '../helpers/client.ts';
import { paymentBody } from '../helpers/payments.ts';
import type { Merchant } from '../helpers/gateway.ts';

export interface Answer {
  op: 'pay' | 'refund';
  gateway: number;
  /** HTTP status, or 0 when the connection ended without an answer. */
  status: number;
  retryAfter: string | null;
  /** The payment a refund was for. */
  token?: string;
  sentAt: number;
  answeredAt: number;
  error?: string;
}

export interface Paid {
  token: string;
  reference: string;
  amount: bigint;
  /** When the payment was answered 200. */
  paidAt: number;
  /** Minor units of every refund answered 200. */
  refunded: bigint;
  /** Every answer to its refunds, for the message of a failed check. */
  refundAnswers: string[];
}

/** What the test needs of a merchant here: credentials and its channel. */
export type LoadMerchant = MerchantCredentials & Pick<Merchant, 'channelToken'>;

const RETRY_PAUSE_MS = 250;
const REQUEST_TIMEOUT_MS = 90_000;

const minor = (text: string) => BigInt(text.replace('.', ''));
const major = (units: bigint) => `${units / 100n}.${String(units % 100n).padStart(2, '0')}`;

export class Load {
  readonly answers: Answer[] = [];
  readonly paid = new Map<string, Paid>();
  /** Payments sent (by reference), answered or not: none may exist twice. */
  readonly references: string[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private next = 0;

  constructor(
    private readonly gateways: string[],
    private readonly merchant: LoadMerchant,
    private readonly run: string,
  ) {}

  start(clients: number): void {
    this.running = true;
    this.loops = Array.from({ length: clients }, (_, i) => this.client(i));
  }

  /** Lets every client finish the call it is making (retries included), then stops. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async client(i: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      const reference = `${this.run}-${i}-${n}`;
      this.references.push(reference);
      const amount = BigInt(1_000 + ((i * 7919 + n * 104_729) % 9_000));
      const body = paymentBody(this.merchant as Merchant, { transaction: { channel_reference: reference, amount: major(amount) } });
      const pay = await this.send('pay', 'regular-payment', body, `${reference}-pay`);
      if (pay?.status !== 200 || pay.body.result?.successful !== true) continue;
      const token = pay.body.transaction.token as string;
      const paid: Paid = { token, reference, amount, paidAt: Date.now(), refunded: 0n, refundAnswers: [] };
      this.paid.set(token, paid);
      for (const [k, refund] of [amount / 3n, null].entries()) {
        const answer = await this.send('refund', 'refund-payment', refund === null ? { transaction: { token } } : { transaction: { token }, amount: major(refund) }, `${reference}-refund-${k}`, paid.refundAnswers);
        if (answer?.status === 200) paid.refunded += minor(answer.body.refund.amount as string);
      }
    }
  }

  /** One call, sent again with the same key while it is answered 503 or not at all; null when stopped first. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely
  private async send(op: Answer['op'], operation: string, body: unknown, key: string, trail: string[] = []): Promise<{ status: number; body: any } | null> {
    for (;;) {
      const gateway = this.next++ % this.gateways.length;
      const sentAt = Date.now();
      try {
        // A new connection per call: a kept-alive one that the server closes as idle (5 s) just
        // as a call is sent on it would read as a dropped call, which is not what is measured.
        const res = await call(this.gateways[gateway]!, this.merchant, operation, body, { headers: { 'Idempotency-Key': key, 'Accept-Language': 'en', Connection: 'close' }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        trail.push(`${key} ${new Date(sentAt).toISOString()} -> ${res.status} ${res.text.slice(0, 160)}`);
        this.answers.push({ op, gateway, status: res.status, retryAfter: res.headers.get('retry-after'), token: (body as { transaction?: { token?: string } }).transaction?.token, sentAt, answeredAt: Date.now(), ...(res.status !== 200 && res.status !== 503 ? { error: res.text.slice(0, 400) } : {}) });
        // 409: another request with this key is still running (or its claim is held): send it again later.
        if (res.status !== 503 && res.status !== 409) return res;
      } catch (err) {
        this.answers.push({ op, gateway, status: 0, retryAfter: null, sentAt, answeredAt: Date.now(), error: String((err as Error).cause ?? err) });
        trail.push(`${key} ${new Date(sentAt).toISOString()} -> no answer`);
      }
      if (!this.running) return null;
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }
}
