// A shopper at EST's 3D Pay gate who closes the browser after the gate charged: the signed answer
// never reaches the gateway (the emulator's gate and ACS are driven here without posting the
// callback form they answer). When the 3D timer gives the payment up 30 minutes after its start it
// asks the bank's order inquiry (ORDERSTATUS) first, so the payment's record agrees with the money:
// a sale the gate made is a successful payment with its event, no sale fails as before, and an
// inquiry that gets no answer leaves the payment to the reconcile job. In the "3D" model nothing
// can have been charged without the gateway's own call, so no inquiry is made.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerEstAcs, EST_CARDS, estCalls, estOrderOf, seedEstMerchant, setEstBehaviour, useEstEmulator } from '../helpers/est.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { THREE_DS_ABANDON_MS } from '../../src/domain/payments/three-ds.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';

const { t } = useGateway();
const est = useEstEmulator();
const merchants: Partial<Record<'3d' | '3d_pay', Merchant>> = {};
let reference = 9100;

async function start(model: '3d' | '3d_pay', number: string = EST_CARDS.approved) {
  const m = (merchants[model] ??= await seedEstMerchant(t, est.emulator, { model, timeoutMs: 1_000 }));
  const res = await m.call('secure-payment', paymentBody(m, { card: { number, security_code: '987' }, transaction: { channel_reference: `ESTNC-${reference++}`, amount: '120.50' } }));
  expect(res.status, res.text).toBe(200);
  return { m, token: res.body.transaction.token as string, redirectUrl: res.body.result.redirect_url as string };
}

const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const retrieve = async (m: Merchant, token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
/** The ORDERSTATUS inquiries the gateway sent the emulator about the payment's order. */
const inquiries = (token: string) => estCalls(t, 'paymentStatus').filter((c) => c.request.OrderId === orderOf(token));
const sales = (token: string) => (estOrderOf(est.emulator, token)?.transactions ?? []).filter((tx) => tx.chargeType === 'S' && tx.status === 'A');

async function passTheAbandonTime(): Promise<void> {
  t.clock.advance(THREE_DS_ABANDON_MS + 1000);
  await runJobsDueBy(t);
}

describe('3d_pay: the gate charged, the callback never came', () => {
  it('the timer asks ORDERSTATUS, finds the sale: successful with transaction.successful, still one sale at the bank', async () => {
    const { m, token, redirectUrl } = await start('3d_pay');
    const answer = await answerEstAcs(redirectUrl);
    expect(answer.fields).toMatchObject({ mdStatus: '1', ProcReturnCode: '00' });
    expect(sales(token)).toEqual([expect.objectContaining({ amountMinor: 12_050 })]);
    expect((await row(token)).status).toBe('started');

    await passTheAbandonTime();

    expect(inquiries(token)).toHaveLength(1);
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: orderOf(token), errorCode: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    expect(sales(token)).toHaveLength(1);
    expect(estCalls(t, 'cancel')).toEqual([]);
  });

  it('the inquiry gets no answer: unresolved without an event; the reconcile job then finds the sale', async () => {
    const { m, token, redirectUrl } = await start('3d_pay');
    await answerEstAcs(redirectUrl);
    await setEstBehaviour(est.emulator, { mode: 'fail', count: 1 });

    await passTheAbandonTime();

    expect(inquiries(token)).toHaveLength(1);
    expect(await row(token)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    expect(await eventsOf(t, token)).toEqual([]);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 1000);
    await runJobsDueBy(t);

    expect(inquiries(token)).toHaveLength(2);
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    expect(sales(token)).toHaveLength(1);
  });
});

describe('3d_pay: the page was opened, nothing was charged', () => {
  it('the shopper declined on the ACS and the callback never came: the bank has no sale, so the payment is given up as before', async () => {
    const { m, token, redirectUrl } = await start('3d_pay');
    expect((await answerEstAcs(redirectUrl, 'decline')).fields.mdStatus).toBe('0');

    await passTheAbandonTime();

    expect(inquiries(token)).toHaveLength(1);
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('payment_abandoned_3ds'), error_code: 'payment_abandoned_3ds' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(sales(token)).toEqual([]);
  });

  it('the shopper never left the gateway\u2019s page for the gate: given up as before', async () => {
    const { m, token, redirectUrl } = await start('3d_pay');
    expect((await fetch(redirectUrl)).status).toBe(200);

    await passTheAbandonTime();

    expect(await retrieve(m, token)).toMatchObject({ successful: false, error_code: 'payment_abandoned_3ds' });
    expect(estOrderOf(est.emulator, token)).toBeUndefined();
  });
});

describe('3d: the gate only authenticates', () => {
  it('a page answered on the ACS whose callback never came is given up without asking the bank', async () => {
    const { m, token, redirectUrl } = await start('3d');
    expect((await answerEstAcs(redirectUrl)).fields.mdStatus).toBe('1');

    await passTheAbandonTime();

    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('payment_abandoned_3ds'), error_code: 'payment_abandoned_3ds' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(inquiries(token)).toEqual([]);
    expect(sales(token)).toEqual([]);
  });
});
