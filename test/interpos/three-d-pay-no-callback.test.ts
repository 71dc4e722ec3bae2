// A shopper who closes the browser after InterPOS's gate charged (3D Pay, 3D Host): the signed
// answer never reaches the gateway. When the 3D timer gives the payment up it asks StatusHistory
// first, so the record agrees with the money: a sale the gate made is a successful payment, one it
// refused fails with the bank's reason. In the 3D model nothing can be charged without the
// gateway's own call, so nothing is asked.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { THREE_DS_ABANDON_MS } from '../../src/domain/payments/three-ds.ts';
import type { InterPosModel } from '../../src/providers/interpos/settings.ts';
import { INTERPOS_CARDS } from './fixtures.ts';
import { answerInterPos, bankFormOf, interPosCalls, seedInterPosMerchant, useInterPosEmulator } from './gateway-support.ts';

const { t } = useGateway();
const interpos = useInterPosEmulator();
const merchants: Partial<Record<InterPosModel, Merchant>> = {};
let reference = 9400;

async function abandoned(model: InterPosModel, number: string = INTERPOS_CARDS.approved) {
  const m = (merchants[model] ??= await seedInterPosMerchant(t, interpos.emulator, model));
  const res = await m.call('secure-payment', paymentBody(m, { card: { number, security_code: '592' }, transaction: { channel_reference: `IPOSNC-${reference++}`, amount: '75.40' } }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  // The shopper goes through the bank's pages; the page that would post the callback is never run.
  await answerInterPos(await bankFormOf(res.body.result.redirect_url as string), 'approve', { Pan: number, Expiry: '1230', Cvv2: '592' });
  t.clock.advance(THREE_DS_ABANDON_MS + 1000);
  await runJobsDueBy(t);
  const orderId = orderOf(token);
  return { token, orderId, asked: interPosCalls(t, 'paymentStatus').filter((c) => JSON.stringify(c).includes(orderId)).length, row: await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } }) };
}

describe('the gate charged, the callback never came', () => {
  it.each(['3d_pay', '3d_host'] as const)('%s: the timer asks StatusHistory and finds the sale: successful, one sale', async (model) => {
    const { token, orderId, asked, row } = await abandoned(model);
    expect(asked).toBe(1);
    expect(row).toMatchObject({ status: 'successful', errorCode: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    expect(interpos.emulator.state.orders.get(orderId)?.txns).toEqual([expect.objectContaining({ type: 'Auth', code: '00', amount: 7_540 })]);
  });

  it("3d_pay, a refused charge: the timer's inquiry fails it with the bank's reason", async () => {
    const { asked, row } = await abandoned('3d_pay', INTERPOS_CARDS.insufficientFunds);
    expect(asked).toBe(1);
    expect(row).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', providerErrorCode: '51' });
  });

  it('3d: nothing asked, the payment given up as before', async () => {
    const { asked, row } = await abandoned('3d');
    expect(asked).toBe(0);
    expect(row.status).toBe('failed');
  });
});
