// The operations the gateway phases send, each checked the way a merchant would check it: a
// payment counts only when it answered 200 with result.successful, a list only with its rows.
import { randomInt } from 'node:crypto';
import { testCardNumber } from '../../test/helpers/cards.ts';
import type { DemoCredentials } from './gateway-process.ts';
import { callGraphQL, callRest, type HttpClient, type HttpResult } from './http-client.ts';

/** Customers a payment picks from, the baseline's too: few enough to repeat, many enough not to queue on one row. */
export const CUSTOMERS = 10_000;
export const customerRef = () => `BENCH-CUST-${randomInt(CUSTOMERS)}`;

function parse(res: HttpResult, what: string): Record<string, unknown> {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    throw new Error(`${what}: HTTP ${res.status}, not JSON: ${res.text.slice(0, 200)}`);
  }
  if (res.status !== 200) throw new Error(`${what}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
  return body;
}

function succeeded(res: HttpResult, what: string): Record<string, unknown> {
  const body = parse(res, what);
  if ((body.result as { successful?: boolean } | undefined)?.successful !== true) throw new Error(`${what}: not successful: ${res.text.slice(0, 200)}`);
  return body;
}

/** Who pays: the bench's one address and card unless given. */
export interface Shopper {
  ip: string;
  card: string;
}
const BENCH_SHOPPER: Shopper = { ip: '203.0.113.7', card: '4111111111111111' };

/** The `n`-th of shoppers each seen once: an address and a valid card number (simulator-approved BIN) of its own. */
export function newShopper(n: number): Shopper {
  return { ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, card: testCardNumber(n % 1e9) };
}

export function paymentBody(demo: DemoCredentials, n: number, shopper: Shopper = BENCH_SHOPPER) {
  return {
    transaction: {
      channel_token: demo.channel_token,
      channel_reference: `BENCH-${n}`,
      amount: '100.00',
      currency: 'TRY',
      installment_number: 1,
      ip: shopper.ip,
      callback_url: 'http://127.0.0.1:9/callback',
    },
    customer: { channel_reference: customerRef(), firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com' },
    card: { holder_name: 'AYSE YILMAZ', number: shopper.card, security_code: '123', expiry_month: '12', expiry_year: '2030' },
  };
}

/** A non-3D card payment approved by the simulator; returns its token. */
export async function regularPayment(http: HttpClient, demo: DemoCredentials, n: number, shopper?: Shopper): Promise<string> {
  const body = succeeded(await callRest(http, demo, 'regular-payment', paymentBody(demo, n, shopper)), 'regular-payment');
  const token = (body.transaction as { token?: string } | undefined)?.token;
  if (!token) throw new Error('regular-payment: no transaction.token in the answer');
  return token;
}

/**
 * The start of a 3D payment: written, sent to the simulated bank, answered with the 3D page's
 * address. The page is not opened; its payment expires 15 minutes later, after the benchmark.
 */
export async function securePaymentStart(http: HttpClient, demo: DemoCredentials, n: number): Promise<void> {
  const body = paymentBody(demo, n);
  const answer = succeeded(await callRest(http, demo, 'secure-payment', { ...body, transaction: { ...body.transaction, channel_reference: `BENCH-3D-${n}` } }), 'secure-payment');
  const redirect = (answer.result as { redirect_url?: string }).redirect_url;
  if (!redirect?.includes('/checkout/3ds/')) throw new Error(`secure-payment: no 3D page address in the answer: ${JSON.stringify(answer).slice(0, 200)}`);
}

export async function retrievePayment(http: HttpClient, demo: DemoCredentials, token: string): Promise<void> {
  succeeded(await callRest(http, demo, 'retrieve-payment', { transaction: { token } }), 'retrieve-payment');
}

/** What a dashboard's payment list shows, relations included (customer, refunds). */
export const PAYMENTS_QUERY = `query Payments($first: Int) {
  payments(first: $first) {
    edges { node {
      token status paymentStatus securityType source amount currency refundedAmount installmentNumber
      channelReference channelToken paymentProviderToken cardHolderName cardFirstDigits cardLastFourDigits cardScheme
      createdAt completedAt customer { channelReference } refunds { type status amount }
    } }
    pageInfo { hasNextPage endCursor }
  }
}`;

export async function listPayments(http: HttpClient, bearer: string, first: number): Promise<void> {
  const body = parse(await callGraphQL(http, bearer, PAYMENTS_QUERY, { first }), 'payments list');
  if (body.errors) throw new Error(`payments list: ${JSON.stringify(body.errors).slice(0, 200)}`);
  const nodes = (body.data as { payments?: { edges?: unknown[] } } | undefined)?.payments?.edges;
  if (nodes?.length !== first) throw new Error(`payments list: ${nodes?.length ?? 'no'} rows instead of ${first}`);
}
