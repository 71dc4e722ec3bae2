// A shopper at GVP's 3D_PAY gate who closes the browser after the gate charged: the signed answer
// never reaches the gateway (the emulator's gate and ACS are driven here without posting the
// callback form they answer). When the 3D timer gives the payment up 30 minutes after its start it
// asks the bank's order inquiry (orderinq) first, so the payment's record agrees with the money:
// a sale the gate made is a successful payment with its event, a sale the gate was refused fails
// with the bank's reason, none at all fails as before, and an inquiry that gets no answer leaves
// the payment to the reconcile job. In the "3D" model nothing can have been charged without the
// gateway's own call, so no inquiry is made.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerGarantiAcs, bankFormOf, GARANTI_CARDS, garantiCalls, garantiState, seedGarantiMerchant, setGarantiBehaviour, useGarantiEmulator } from '../helpers/garanti.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { THREE_DS_ABANDON_MS } from '../../src/domain/payments/three-ds.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';

const { t } = useGateway();
const garanti = useGarantiEmulator();
const merchants: Partial<Record<'3d' | '3d_pay', Merchant>> = {};
let reference = 9200;

async function start(model: '3d' | '3d_pay', number: string = GARANTI_CARDS.approved) {
  const m = (merchants[model] ??= await seedGarantiMerchant(t, garanti.emulator, { model, timeoutMs: 1_000 }));
  const res = await m.call('secure-payment', paymentBody(m, { card: { number, security_code: '321' }, transaction: { channel_reference: `GVPNC-${reference++}`, amount: '75.40' } }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  return { m, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
}

const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const retrieve = async (m: Merchant, token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
/** The orderinq calls the gateway sent the emulator about the order. */
const inquiries = (orderId: string) => garantiCalls(t, 'paymentStatus').filter((c) => JSON.stringify(c).includes(orderId));
const txnsOf = async (orderId: string) => (await garantiState(garanti.emulator)).orders.find((o) => o.orderId === orderId)?.txns ?? [];
const sales = async (orderId: string) => (await txnsOf(orderId)).filter((tx) => tx.type === 'sales' && tx.code === '00');

async function passTheAbandonTime(): Promise<void> {
  t.clock.advance(THREE_DS_ABANDON_MS + 1000);
  await runJobsDueBy(t);
}

describe('3d_pay: the gate charged, the callback never came', () => {
  it('the timer asks orderinq, finds the sale: successful with transaction.successful, still one sale at GVP', async () => {
    const { m, token, orderId, redirectUrl } = await start('3d_pay');
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    expect(answer.fields).toMatchObject({ mdstatus: '1', procreturncode: '00' });
    expect(await sales(orderId)).toEqual([expect.objectContaining({ amount: 7_540 })]);
    expect((await row(token)).status).toBe('started');

    await passTheAbandonTime();

    expect(inquiries(orderId)).toHaveLength(1);
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    const [sale] = await sales(orderId);
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: `${orderId}:${sale!.retrefNum}`, errorCode: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    expect(await txnsOf(orderId)).toHaveLength(1);
    expect(garantiCalls(t, 'cancel')).toEqual([]);
  });

  it('the inquiry gets no answer: unresolved without an event; the reconcile job then finds the sale', async () => {
    const { m, token, orderId, redirectUrl } = await start('3d_pay');
    await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    await setGarantiBehaviour(garanti.emulator, { mode: 'fail', count: 1 });

    await passTheAbandonTime();

    expect(inquiries(orderId)).toHaveLength(1);
    expect(await row(token)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    expect(await eventsOf(t, token)).toEqual([]);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 1000);
    await runJobsDueBy(t);

    expect(inquiries(orderId)).toHaveLength(2);
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    expect(await sales(orderId)).toHaveLength(1);
  });
});

describe('3d_pay: the page was opened, nothing was charged', () => {
  it('the shopper declined on the ACS and the callback never came: GVP has no order, so the payment is given up as before', async () => {
    const { m, token, orderId, redirectUrl } = await start('3d_pay');
    expect((await answerGarantiAcs(await bankFormOf(redirectUrl), 'decline')).fields.mdstatus).toBe('0');

    await passTheAbandonTime();

    expect(inquiries(orderId)).toHaveLength(1);
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('payment_abandoned_3ds'), error_code: 'payment_abandoned_3ds' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(await txnsOf(orderId)).toEqual([]);
  });

  it('the gate\u2019s charge was refused (51) and the callback never came: failed with the bank\u2019s reason, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start('3d_pay', GARANTI_CARDS.insufficientFunds);
    expect((await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve')).fields.procreturncode).toBe('51');

    await passTheAbandonTime();

    expect(inquiries(orderId)).toHaveLength(1);
    expect(await retrieve(m, token)).toMatchObject({ successful: false, error_code: 'insufficient_funds' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(await sales(orderId)).toEqual([]);
  });
});

describe('3d: the gate only authenticates', () => {
  it('a page answered on the ACS whose callback never came is given up without asking the bank', async () => {
    const { m, token, orderId, redirectUrl } = await start('3d');
    expect((await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve')).fields.mdstatus).toBe('1');

    await passTheAbandonTime();

    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('payment_abandoned_3ds'), error_code: 'payment_abandoned_3ds' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(inquiries(orderId)).toEqual([]);
    expect(await txnsOf(orderId)).toEqual([]);
  });
});
