// GVP not answering in time (the account's timeout_ms is 1 s): regular-payment answers the
// gateway's provider_timeout and the payment stays unresolved, without an event. The
// reconcile-payment job then asks GVP's order inquiry (orderinq) by the payment's order id: a sale
// GVP carried out late (emulator `slow`) is settled successful; one it never carried out
// (emulator `timeout`) is not found, so the payment stays unresolved and fails as
// payment_unconfirmed after the last try.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { answerGarantiAcs, bankFormOf, GARANTI_CARDS, garantiCalls, garantiState, seedGarantiMerchant, setGarantiBehaviour, useGarantiEmulator } from '../helpers/garanti.ts';
import { orderOf } from '../helpers/bank-orders.ts';

const { t } = useGateway();
const garanti = useGarantiEmulator();
let m: Merchant;
let reference = 8000;

const merchant = async () => (m ??= await seedGarantiMerchant(t, garanti.emulator, { timeoutMs: 1_000 }));
const pay = () => m.call('regular-payment', paymentBody(m, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: `GVPT-${reference++}` } }));
const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const retrieve = async (token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
const inquiries = (token: string) => garantiCalls(t, 'paymentStatus').filter((c) => JSON.stringify(c).includes(orderOf(token)));
const saleAt = async (token: string) => (await garantiState(garanti.emulator)).orders.find((o) => o.orderId === orderOf(token))?.txns.map((x) => `${x.type}:${x.code}`);

describe('a sale GVP answers too late', () => {
  it('answers provider_timeout (unresolved, no event); the reconcile job asks orderinq and settles it successful', async () => {
    await merchant();
    await setGarantiBehaviour(garanti.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });

    const res = await pay();

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    expect(await eventsOf(t, token)).toEqual([]);
    // GVP carries the sale out once its delay is over.
    await expect.poll(() => saleAt(token), { timeout: 5_000 }).toEqual(['sales:00']);

    // Before its first try the job does not ask.
    t.clock.advance(RECONCILE_TRIES_MS[0]! - 5_000);
    await runJobsDueBy(t);
    expect(inquiries(token)).toEqual([]);
    t.clock.advance(10_000);
    await runJobsDueBy(t);

    expect(inquiries(token)).toHaveLength(1);
    expect(await row(token)).toMatchObject({ status: 'successful', paymentStatus: 'paid' });
    expect((await row(token)).providerReference).toMatch(new RegExp(`^${orderOf(token)}`));
    expect(await retrieve(token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });
});

describe('a sale GVP never carried out', () => {
  it('answers provider_timeout; orderinq finds no sale at each try; after the last it fails as payment_unconfirmed', async () => {
    await merchant();
    await setGarantiBehaviour(garanti.emulator, { mode: 'timeout', count: 1 });

    const res = await pay();

    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await saleAt(token)).toBeUndefined();
    const unresolvedAt = (await row(token)).completedAt!.getTime();

    for (const [i, at] of RECONCILE_TRIES_MS.entries()) {
      t.clock.set(new Date(unresolvedAt + at + 1_000));
      await runJobsDueBy(t);
      expect(inquiries(token)).toHaveLength(i + 1);
      if (i < RECONCILE_TRIES_MS.length - 1) expect((await row(token)).status).toBe('unresolved');
    }

    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: 'payment_unconfirmed' });
    expect(await retrieve(token)).toEqual({ successful: false, message: msg('payment_unconfirmed'), error_code: 'payment_unconfirmed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(await saleAt(token)).toBeUndefined();
  });
});

describe('a 3D sale (model 3d) GVP answers too late', () => {
  it('leaves the payment unresolved; the reconcile job asks orderinq and settles it successful', async () => {
    await merchant();
    const started = await m.call('secure-payment', paymentBody(m, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: `GVPT-${reference++}`, callback_url: 'http://127.0.0.1:9/back' } }));
    const token = started.body.transaction.token as string;
    const answer = await answerGarantiAcs(await bankFormOf(started.body.result.redirect_url as string), 'approve');
    await setGarantiBehaviour(garanti.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });

    const back = await postCallback(answer.callbackUrl, answer.fields);

    expect(back.status).toBeLessThan(500);
    expect(await row(token)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    expect(await eventsOf(t, token)).toEqual([]);
    await expect.poll(() => saleAt(token), { timeout: 5_000 }).toEqual(['sales:00']);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 1_000);
    await runJobsDueBy(t);

    expect(inquiries(token)).toHaveLength(1);
    expect(await row(token)).toMatchObject({ status: 'successful' });
    expect(await retrieve(token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });
});
