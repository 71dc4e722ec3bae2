// Link payments taken on the link page: the link's `transactions` keep the latest 50
// attempts, newest first (the 51st drops the oldest, the count keeps them all), and a paid link
// payment of a link with `emails_customer` sends its receipt through a real local SMTP server.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { answerAcs, GOOD_CARD } from '../helpers/checkout.ts';
import { eventually } from '../helpers/webhooks.ts';

interface Mail {
  from: string;
  to: string[];
  data: string;
}

let t: TestGateway;
let m: Merchant;
let smtp: SMTPServer;
const mails: Mail[] = [];
const ts = { form: 'timestamp' as const, get timestamp() { return Math.floor(t.clock.now().getTime() / 1000); } };

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  const { port } = smtp.server.address() as AddressInfo;
  t = await startTestGateway({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Çiçek Atölyesi <kasa@cicek.example>' } });
  m = await seedWorkspace(t);
  await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { name: 'Çiçek Atölyesi' } });
  await t.gateway.admission.synced();
});
afterAll(async () => {
  await t?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function createLink(link: Record<string, unknown>): Promise<{ token: string; checkoutUrl: string }> {
  const res = await m.call('create-payment-link', { payment_link: { currency: 'TRY', ...link } }, ts);
  if (res.status !== 200) throw new Error(`create-payment-link answered ${res.status}: ${res.text}`);
  return { token: res.body.payment_link.token, checkoutUrl: res.body.payment_link.checkout_url };
}

async function startPayment(checkoutUrl: string, fields: Record<string, string> = {}): Promise<string> {
  const body = new URLSearchParams({ ...GOOD_CARD, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', ...fields }).toString();
  const res = await fetch(checkoutUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  await res.text();
  if (res.status !== 303) throw new Error(`link page answered ${res.status}`);
  return res.headers.get('location')!;
}

// First: the receipt job is queued at the gateway clock, which the next test moves ahead of
// the job runner's real time.
describe('e-mail receipts', () => {
  it('a paid link payment of a link with emails_customer sends the payer a receipt over SMTP; a link without it sends none', async () => {
    const mailing = await createLink({ items: [{ name: 'Gül buketi', quantity: 2, unit_amount: '450.00', tax_rate: 10 }], emails_customer: true });
    const silent = await createLink({ items: [{ name: 'Kart', quantity: 1, unit_amount: '25.00' }] });
    await answerAcs(t.gateway.baseUrl, await startPayment(silent.checkoutUrl, { email: 'sessiz@example.com' }), 'approve');
    await answerAcs(t.gateway.baseUrl, await startPayment(mailing.checkoutUrl), 'approve');

    const lp = await t.gateway.services.db.linkPayment.findFirstOrThrow({ where: { linkId: mailing.token }, include: { payment: true } });
    expect(lp.status).toBe('paid');
    const mail = await eventually(async () => mails.find((x) => x.data.includes(lp.reference)), 'the receipt e-mail');
    expect(mail.to).toEqual(['ayse@example.com']);
    expect(mail.from).toBe('kasa@cicek.example');
    const text = mail.data.replace(/=\r?\n/g, '');
    expect(text).toContain('900.00 TRY');
    expect(text).toContain('2 x G');
    expect(text).toContain(lp.payment!.id);
    // The receipt job is done once the paid link's mail is out; the silent link sent nothing.
    expect(mails.filter((x) => x.to.includes('sessiz@example.com'))).toEqual([]);
    expect(mails.filter((x) => x.data.includes(lp.reference))).toHaveLength(1);
  });
});

describe('a link’s transactions', () => {
  it('the 51st attempt drops the oldest from `transactions`; the count keeps all 51', async () => {
    const { token, checkoutUrl } = await createLink({ amount_type: 'custom', item_name: 'Bağış' });
    for (let i = 1; i <= 51; i++) {
      await startPayment(checkoutUrl, { amount: `${i}.00` });
      // Distinct creation times, so "newest first" is one order.
      t.clock.advance(1_000);
    }
    const res = await m.call('retrieve-payment-links', { token }, ts);
    expect(res.status).toBe(200);
    const [link] = res.body.payment_links;
    expect(link.transactions_count).toBe(51);
    expect(link.transactions).toHaveLength(50);
    expect(link.transactions.map((x: { amount: string }) => x.amount)).toEqual(Array.from({ length: 50 }, (_, i) => `${51 - i}.00`));
  });
});

describe('refunds and cancels of link payments', () => {
  it('send payment_link.payment_refunded / payment_link.payment_cancelled with the link payment and transaction, never transaction.*', async () => {
    const { token, checkoutUrl } = await createLink({ items: [{ name: 'Vazo', quantity: 1, unit_amount: '200.00' }] });
    // A second between steps: the events' order is their creation order.
    await answerAcs(t.gateway.baseUrl, await startPayment(checkoutUrl), 'approve');
    t.clock.advance(1_000);
    await answerAcs(t.gateway.baseUrl, await startPayment(checkoutUrl), 'approve');
    t.clock.advance(1_000);
    const paid = await t.gateway.services.db.linkPayment.findMany({ where: { linkId: token }, include: { payment: true }, orderBy: { createdAt: 'asc' } });
    const [first, second] = paid.map((lp) => ({ lp: lp.id, tx: lp.payment!.id }));

    expect((await m.call('refund-payment', { transaction: { token: first!.tx }, amount: '50.00' })).status).toBe(200);
    t.clock.advance(1_000);
    expect((await m.call('cancel-payment', { transaction: { token: second!.tx } })).status).toBe(200);

    const events = await t.gateway.services.db.outboxEvent.findMany({ where: { OR: [{ recordToken: token }, { transactionToken: { in: [first!.tx, second!.tx] } }] }, orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => [e.kind, e.recordToken, e.linkPaymentToken, e.transactionToken])).toEqual([
      ['payment_link.paid', token, first!.lp, first!.tx],
      ['payment_link.paid', token, second!.lp, second!.tx],
      ['payment_link.payment_refunded', token, first!.lp, first!.tx],
      ['payment_link.payment_cancelled', token, second!.lp, second!.tx],
    ]);
  });
});
