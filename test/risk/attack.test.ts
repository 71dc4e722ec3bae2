// A card-testing run against two gateway instances over one database, as measured in the wild:
// 200 different valid card numbers at 1.00 TRY from one address on a custom-amount payment link,
// then the same through the REST API with one `transaction.ip`, alternating between the two
// instances, interleaved with 50 honest shoppers (each from an address of their own; some mistype
// the number once, some are declined once). At most 10 of the attacker's attempts reach the
// provider (its provider attempts table), every honest shopper gets to the 3-D step, and the
// attacker's stopped attempts read exactly like a bank's plain decline.
import { beforeAll, describe, expect, it } from 'vitest';
import { useResources } from '../helpers/fixture.ts';
import { seedWorkspace, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { call } from '../helpers/client.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { answerAcs, GOOD_CARD } from '../helpers/checkout.ts';
import { mistyped, testCardNumber } from '../helpers/cards.ts';
import { msg } from '../helpers/messages.ts';

const resources = useResources();
let a: TestGateway;
let b: TestGateway;
let m: Merchant;
const ATTACKER = '203.0.113.66';

beforeAll(async () => {
  // Behind a proxy: the shopper's address is the last X-Forwarded-For entry.
  a = await resources.startGateway({ env: { TRUST_PROXY: 'true' } });
  b = await resources.startGateway({ databaseUrl: a.databaseUrl, clock: a.clock, env: { TRUST_PROXY: 'true' } });
  m = await seedWorkspace(a, { riskGuard: true });
  await b.gateway.admission.synced();
}, 60_000);

const gateways = () => [a, b];
const db = () => a.gateway.services.db;

async function providerCallsFrom(ip: string): Promise<number> {
  for (const g of gateways()) await g.gateway.services.attempts.drain();
  const [row] = await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "ProviderAttempt" pa JOIN "Payment" p ON p.id = pa."paymentId" WHERE p.ip = ${ip}`;
  return Number(row!.n);
}

/** The link's page on instance `g`, posted by a browser at `ip` behind the proxy. */
async function postLink(g: TestGateway, linkToken: string, ip: string, number: string) {
  const form = new URLSearchParams({ ...GOOD_CARD, number, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', amount: '1,00' });
  const res = await fetch(`${g.gateway.baseUrl}/checkout/link/${linkToken}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': `10.9.9.9, ${ip}` },
    body: form.toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

/** A notice as the page shows it: the failed payment's reason in the page's words. */
const noticeOf = (html: string) => /<p class="notice" role="alert" id="notice">([^<]*)<\/p>/.exec(html)?.[1] ?? null;

/** One honest shopper on the link from their own address: maybe a typo first, maybe a decline first, then the 3-D step. */
async function honestShopper(linkToken: string, n: number): Promise<{ reached3ds: boolean; blocked: boolean }> {
  const g = gateways()[n % 2]!;
  const ip = `198.18.${Math.floor(n / 200)}.${(n % 200) + 1}`;
  let blocked = false;
  if (n % 5 === 1) {
    const typo = await postLink(g, linkToken, ip, mistyped(CARDS.approved));
    expect(noticeOf(typo.html)).toContain(msg('decline_invalid_card_number'));
  }
  if (n % 5 === 3) {
    const declined = await postLink(g, linkToken, ip, CARDS.insufficientFunds);
    expect(declined.status).toBe(303);
    const back = await answerAcs(g.gateway.baseUrl, declined.location!, 'approve');
    expect(back.status).toBeLessThan(400);
  }
  const paid = await postLink(gateways()[(n + 1) % 2]!, linkToken, ip, CARDS.approved);
  if (paid.status !== 303) blocked = true;
  return { reached3ds: paid.status === 303 && /\/checkout\/3ds\//.test(paid.location ?? ''), blocked };
}

describe('a card-testing run', { timeout: 300_000 }, () => {
  it('on a custom-amount link from one address: at most 10 reach the provider, 50 honest shoppers all pass', async () => {
    const link = await m.call('create-payment-link', { payment_link: { currency: 'TRY', amount_type: 'custom', item_name: 'Bağış' } }, { form: 'timestamp', timestamp: Math.floor(a.clock.now().getTime() / 1000) });
    expect(link.status, link.text).toBe(200);
    const token = link.body.payment_link.token as string;

    const attacker: Array<{ status: number; notice: string | null }> = [];
    const honest: Array<{ reached3ds: boolean; blocked: boolean }> = [];
    for (let i = 0; i < 200; i++) {
      const res = await postLink(gateways()[i % 2]!, token, ATTACKER, testCardNumber(10_000 + i, i % 2 ? '555555' : '411111'));
      attacker.push({ status: res.status, notice: noticeOf(res.html) });
      if (i % 4 === 3) honest.push(await honestShopper(token, (i - 3) / 4));
    }
    const reached = attacker.filter((r) => r.status === 303).length;
    // Four distinct cards pass (the fifth blocks): the count is shared, or each instance would let four through.
    expect(reached).toBe(4);
    expect(await providerCallsFrom(ATTACKER)).toBe(4);
    // Every stopped attempt says what any card failure says on a hosted page: the card was not accepted.
    const stopped = new Set(attacker.filter((r) => r.status !== 303).map((r) => r.notice));
    expect([...stopped]).toEqual([msg('page_payment_failed', { reason: msg('page_card_not_accepted') })]);

    expect(honest).toHaveLength(50);
    expect(honest.filter((h) => h.blocked)).toEqual([]);
    expect(honest.every((h) => h.reached3ds)).toBe(true);
    const blockedRows = await db().payment.findMany({ where: { workspaceId: m.workspaceId, errorCode: 'blocked' }, select: { ip: true } });
    expect(new Set(blockedRows.map((p) => p.ip))).toEqual(new Set([ATTACKER]));
    // Counted once for both instances: the blocks came from either.
    const byInstance = await db().payment.groupBy({ by: ['errorCode'], where: { ip: ATTACKER }, _count: true });
    expect(byInstance.find((r) => r.errorCode === 'blocked')?._count).toBe(200 - reached);
  });

  it('through the REST API with one transaction.ip: at most 10 reach the provider; other shoppers of the workspace pay', async () => {
    const ip = '203.0.113.77';
    const creds = { team: m.team, apiKey: m.apiKey, apiSecret: m.apiSecret };
    const answers: Array<{ successful: boolean; code: string | null; message: string | null }> = [];
    let honestOk = 0;
    for (let i = 0; i < 200; i++) {
      const g = gateways()[i % 2]!;
      const body = paymentBody(m, { transaction: { channel_reference: `ATTACK-${i}`, ip, amount: '1.00' }, card: { number: testCardNumber(20_000 + i) } });
      const res = await call(g.gateway.baseUrl, creds, i % 3 === 0 ? 'regular-payment' : 'secure-payment', body);
      expect(res.status).toBe(200);
      answers.push({ successful: res.body.result.successful, code: res.body.result.error_code ?? null, message: res.body.result.message ?? null });
      if (i % 20 === 0) {
        const shopper = paymentBody(m, { transaction: { channel_reference: `SHOP-${i}`, ip: `198.19.0.${i / 20 + 1}` }, card: { number: testCardNumber(30_000 + i) } });
        if ((await call(gateways()[(i + 1) % 2]!.gateway.baseUrl, creds, 'regular-payment', shopper)).body.result.successful) honestOk++;
      }
    }
    // Two cards pass, the third as a secure payment (3-D Secure required), the fourth (regular) is
    // refused with 3ds_required, the fifth blocks: shared by both instances.
    expect(await providerCallsFrom(ip)).toBe(3);
    expect(answers.slice(0, 5).map((r) => r.code)).toEqual([null, null, null, '3ds_required', 'blocked']);
    expect(honestOk).toBe(10);
    const blocked = answers.filter((r) => r.code === 'blocked');
    expect(blocked.length).toBeGreaterThan(180);
    expect(new Set(blocked.map((r) => r.message))).toEqual(new Set([msg('decline_card_declined')]));
  });
});
