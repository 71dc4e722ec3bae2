// secure-payment through Kuveyt Türk's KuveytPOS without a browser: the gateway posts the card to
// the emulator's 3-D gate (the enrollment), its redirect address answers the form the bank gave
// back (to the ACS), the ACS posts the signed AuthenticationResponse to the callback, and the
// gateway asks for the provision with its MD. Callbacks that are not KuveytPOS's answer for this
// payment (outcome rewritten, HashData altered or missing, the unsigned amount changed, another
// payment's, replayed) show an error page, write nothing and make no provision. A gate that
// refuses at once (a wrong password) fails the payment before any page.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { autoPostForm, paymentBody, postCallback } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import { bankThreeDsReads, seedBankMerchant } from '../helpers/bank.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { acsTrip, authXml, editAuth, KUVEYT_CARDS, kuveytBankAccount, kuveytCalls, kuveytOrder, setKuveytBehaviour, useKuveytEmulator } from './helpers.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const kuveyt = useKuveytEmulator();
let merchant: Merchant | undefined;
let reference = 3000;

async function start(number: string = KUVEYT_CARDS.approved, m?: Merchant) {
  const payer = m ?? (merchant ??= await seedBankMerchant(t, kuveytBankAccount(kuveyt.emulator)));
  const res = await payer.call('secure-payment', paymentBody(payer, { card: { number, security_code: '321' }, transaction: { channel_reference: `KT3D-${reference++}`, amount: '100.25', callback_url: `${shop.url}/payment-return` } }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  return { m: payer, res, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
}

const { row, callbackOf, retrieve, stringify, snapshot, expectRefused } = bankThreeDsReads(t);
const provisions = (orderId: string) => kuveytCalls(t, 'complete3D').filter((c) => JSON.stringify(c).includes(orderId));

describe('secure-payment through KuveytPOS', () => {
  it('enrollment -> ACS Approve -> signed callback -> provision -> transaction_token to the callback_url; one sale at KuveytPOS', async () => {
    const { m, token, orderId, redirectUrl } = await start();
    expect(stringify((await row(token)).threeDsRedirect)).not.toContain(KUVEYT_CARDS.approved);
    const enrollment = kuveytCalls(t, 'start3D').at(-1)!;
    expect(enrollment.request).toMatchObject({ message: { MerchantOrderId: orderId, Amount: '10025', CurrencyCode: '0949', TransactionSecurity: '3', OkUrl: callbackOf(token), FailUrl: callbackOf(token), DeviceData: { ClientIP: '203.0.113.7' }, CardNumber: `****${KUVEYT_CARDS.approved.slice(-4)}`, CardCVV2: '[redacted]' } });
    const trip = await acsTrip(redirectUrl, 'approve');
    expect(trip.bankForm.action).toMatch(new RegExp(`^${kuveyt.emulator.url}/_emulator/acs/`));
    expect(trip.callbackUrl).toBe(callbackOf(token));
    expect(authXml(trip.fields)).toContain('<ResponseCode>00</ResponseCode>');

    const back = await postCallback(trip.callbackUrl, trip.fields);
    expect(back.status).toBe(200);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', action: `${shop.url}/payment-return`, fields: { transaction_token: token } });
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    const order = await kuveytOrder(kuveyt.emulator, orderId);
    expect(order).toMatchObject({ responseCode: '00', amount: 10_025, currency: '949', transactionSecurity: '3' });
    expect(provisions(orderId)).toHaveLength(1);
    expect((await row(token)).providerReference).toBe(`${orderId}:${order!.orderId}:${order!.rrn}:${order!.stan}:${order!.provision}:10025:949`);
    const logs = t.logLines.join('\n');
    expect(logs).not.toContain(KUVEYT_CARDS.approved);
    expect(logs).not.toMatch(/[">:=]321\b/);
    expect(logs).not.toContain(kuveyt.emulator.password);
    const md = /<MD>([^<]+)<\/MD>/.exec(authXml(trip.fields))![1]!;
    expect(logs).not.toContain(md);
  });

  it('Decline on the ACS: failed 3ds_failed (MPIAuthenticationStatusN), transaction_token still returned, no provision', async () => {
    const { m, token, orderId, redirectUrl } = await start();
    const trip = await acsTrip(redirectUrl, 'decline');
    const back = await postCallback(trip.callbackUrl, trip.fields);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', fields: { transaction_token: token } });
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: 'MPIAuthenticationStatusN' });
    expect(await kuveytOrder(kuveyt.emulator, orderId)).toBeUndefined();
    expect(provisions(orderId)).toEqual([]);
  });

  it('a card whose ACS does not authenticate answers at once: 3ds_failed', async () => {
    const { token, redirectUrl } = await start(KUVEYT_CARDS.notAuthenticated);
    const trip = await acsTrip(redirectUrl, 'approve');
    expect((await postCallback(trip.callbackUrl, trip.fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed' });
  });

  it('insufficient funds at the provision: failed insufficient_funds, KuveytPOS\u2019s 51 kept', async () => {
    const { m, token, redirectUrl } = await start(KUVEYT_CARDS.insufficientFunds);
    const trip = await acsTrip(redirectUrl, 'approve');
    expect((await postCallback(trip.callbackUrl, trip.fields)).status).toBe(200);
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', providerErrorCode: '51' });
  });

  it('a gate that refuses at once (the password is wrong: HashDataError) fails the payment before any page', async () => {
    const wrong = await seedBankMerchant(t, { ...kuveytBankAccount(kuveyt.emulator), credentials: { ...kuveytBankAccount(kuveyt.emulator).credentials, password: 'not-the-password' } });
    const { token, res } = await start(KUVEYT_CARDS.approved, wrong);
    expect(res.body.result).toMatchObject({ successful: false, error_code: 'provider_error' });
    expect(await row(token)).toMatchObject({ status: 'failed', providerErrorCode: 'HashDataError' });
  });
});

describe('a provision whose answer was lost', () => {
  it('provider_timeout at the callback, then the reconcile job\u2019s order inquiry finds the sale: successful, with its reference', async () => {
    const quick = await seedBankMerchant(t, kuveytBankAccount(kuveyt.emulator, { timeout_ms: 1_000 }));
    const { token, orderId, redirectUrl } = await start(KUVEYT_CARDS.approved, quick);
    const trip = await acsTrip(redirectUrl, 'approve');
    await setKuveytBehaviour(kuveyt.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    expect((await postCallback(trip.callbackUrl, trip.fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'unresolved' });
    await expect.poll(() => kuveytOrder(kuveyt.emulator, orderId), { timeout: 5_000 }).toMatchObject({ responseCode: '00' });

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 5_000);
    await runJobsDueBy(t);
    const order = (await kuveytOrder(kuveyt.emulator, orderId))!;
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: `${orderId}:${order.orderId}:${order.rrn}:${order.stan}:${order.provision}:10025:949` });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });
});

describe('callbacks that are not KuveytPOS\u2019s answer for the payment', () => {
  it('a refusal rewritten as approved, the HashData altered or removed, the unsigned amount changed: an error page, nothing written, no provision; the real answer still settles it', async () => {
    const { token, orderId, redirectUrl } = await start();
    const trip = await acsTrip(redirectUrl, 'decline');
    const before = await snapshot(token);
    for (const forged of [
      editAuth(trip.fields, (xml) => xml.replace('<ResponseCode>MPIAuthenticationStatusN</ResponseCode>', '<ResponseCode>00</ResponseCode>')),
      editAuth(trip.fields, (xml) => xml.replace(/<HashData>[^<]{4}/, '<HashData>AAAA')),
      editAuth(trip.fields, (xml) => xml.replace(/<HashData>[^<]*<\/HashData>/, '')),
      editAuth(trip.fields, (xml) => xml.replace('<Amount>10025</Amount>', '<Amount>100</Amount>')),
      { ...trip.fields, AuthenticationResponse: `${trip.fields.AuthenticationResponse!.slice(0, -6)}AAAA` },
    ]) {
      await expectRefused(trip.callbackUrl, forged);
    }
    expect(await snapshot(token)).toEqual(before);
    expect(provisions(orderId)).toEqual([]);
    expect((await postCallback(trip.callbackUrl, trip.fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed' });
  });

  it('an approved answer whose unsigned amount was lowered: refused, no provision (the provision would ask the payment\u2019s own amount anyway)', async () => {
    const { token, orderId, redirectUrl } = await start();
    const trip = await acsTrip(redirectUrl, 'approve');
    const before = await snapshot(token);
    await expectRefused(trip.callbackUrl, editAuth(trip.fields, (xml) => xml.replace('<Amount>10025</Amount>', '<Amount>1</Amount>')));
    expect(await snapshot(token)).toEqual(before);
    expect(provisions(orderId)).toEqual([]);
  });

  it('another payment\u2019s signed answer posted to this payment\u2019s address: an error page, neither payment touched', async () => {
    const mine = await start();
    const other = await start();
    await acsTrip(mine.redirectUrl, 'approve');
    const others = await acsTrip(other.redirectUrl, 'approve');
    const before = { mine: await snapshot(mine.token), other: await snapshot(other.token) };
    await expectRefused(callbackOf(mine.token), others.fields);
    expect({ mine: await snapshot(mine.token), other: await snapshot(other.token) }).toEqual(before);
    expect([...provisions(mine.orderId), ...provisions(other.orderId)]).toEqual([]);
  });

  it('a replay after completion: 409, the settlement unchanged, one provision', async () => {
    const { token, orderId, redirectUrl } = await start();
    const trip = await acsTrip(redirectUrl, 'approve');
    expect((await postCallback(trip.callbackUrl, trip.fields)).status).toBe(200);
    const settled = await snapshot(token);
    const replayed = await postCallback(trip.callbackUrl, trip.fields);
    expect(replayed.status).toBe(409);
    expect(await snapshot(token)).toEqual(settled);
    expect(provisions(orderId)).toHaveLength(1);
  });
});
