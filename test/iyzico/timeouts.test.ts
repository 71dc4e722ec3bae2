// iyzico not answering in time (the account's timeout_ms is 1 s): regular-payment answers the
// gateway's provider_timeout and the payment stays unresolved, without an event. The
// reconcile-payment job then asks iyzico's payment/detail under the lost call's conversationId:
// a charge iyzico carried out late (emulator `slow`) is settled successful with
// transaction.successful; one it never carried out (emulator `timeout`) is unknown to iyzico, so
// the payment stays unresolved through every try and fails as payment_unconfirmed after the last.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { answerIyzicoAcs, emulatorPayments, emulatorState, IYZICO_CARDS, iyzicoCalls, seedIyzicoMerchant, setBehaviour, useIyzicoEmulator } from '../helpers/iyzico.ts';

const { t } = useGateway();
const iyzico = useIyzicoEmulator();
let m: Merchant;
let reference = 8000;

const pay = () => m.call('regular-payment', paymentBody(m, { card: { number: IYZICO_CARDS.approved }, transaction: { channel_reference: `IYZT-${reference++}` } }));
const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const retrieve = async (token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
/** The reconcile job's payment/detail calls for a payment (asked by the lost charge's conversationId). */
const inquiries = (token: string) => iyzicoCalls(t, 'paymentStatus').filter((c) => c.request.paymentConversationId === `${token}:charge`);

/** A merchant whose iyzico account waits 1 s, with the card's BIN already known (so the next slow call is the charge). */
async function merchantWithShortTimeout(): Promise<void> {
  m ??= await seedIyzicoMerchant(t, iyzico.emulator, { timeoutMs: 1_000 });
  expect((await pay()).body.result).toEqual({ successful: true, message: null });
}

describe('a charge iyzico answers too late', () => {
  it('answers provider_timeout (unresolved, no event); the reconcile job finds it paid at iyzico and settles it with transaction.successful', async () => {
    await merchantWithShortTimeout();
    await setBehaviour(iyzico.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });

    const res = await pay();

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    expect(await eventsOf(t, token)).toEqual([]);
    // iyzico carries the charge out once its delay is over.
    await expect.poll(async () => (await emulatorPayments(iyzico.emulator, `${token}:charge`)).map((p) => p.status), { timeout: 5_000 }).toEqual(['SUCCESS']);

    // Before its first try the job does not ask.
    t.clock.advance(RECONCILE_TRIES_MS[0]! - 5_000);
    await runJobsDueBy(t);
    expect(inquiries(token)).toEqual([]);
    t.clock.advance(10_000);
    await runJobsDueBy(t);

    expect(inquiries(token)).toHaveLength(1);
    const [held] = await emulatorPayments(iyzico.emulator, `${token}:charge`);
    expect(await row(token)).toMatchObject({ status: 'successful', paymentStatus: 'paid', providerReference: held!.paymentId });
    expect(await retrieve(token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });
});

describe('a charge iyzico never carried out', () => {
  it('answers provider_timeout; iyzico knows no such payment at each try; after the last it fails as payment_unconfirmed with transaction.failed', async () => {
    await merchantWithShortTimeout();
    await setBehaviour(iyzico.emulator, { mode: 'timeout', count: 1 });

    const res = await pay();

    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await emulatorPayments(iyzico.emulator, `${token}:charge`)).toEqual([]);
    const unresolvedAt = (await row(token)).completedAt!.getTime();

    for (const [i, at] of RECONCILE_TRIES_MS.entries()) {
      t.clock.set(new Date(unresolvedAt + at + 1_000));
      await runJobsDueBy(t);
      expect(inquiries(token)).toHaveLength(i + 1);
      if (i < RECONCILE_TRIES_MS.length - 1) {
        expect((await row(token)).status).toBe('unresolved');
        expect(await eventsOf(t, token)).toEqual([]);
      }
    }

    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: 'payment_unconfirmed' });
    expect(await retrieve(token)).toEqual({ successful: false, message: msg('payment_unconfirmed'), error_code: 'payment_unconfirmed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(await emulatorPayments(iyzico.emulator, `${token}:charge`)).toEqual([]);
  });
});

describe('a 3D completion iyzico answers too late', () => {
  it('leaves the payment unresolved; the reconcile job asks by iyzico\u2019s paymentId and settles it successful', async () => {
    await merchantWithShortTimeout();
    const started = await m.call('secure-payment', paymentBody(m, { card: { number: IYZICO_CARDS.approved }, transaction: { channel_reference: `IYZT-${reference++}`, callback_url: 'http://127.0.0.1:9/back' } }));
    const token = started.body.transaction.token as string;
    const answer = await answerIyzicoAcs(await (await fetch(started.body.result.redirect_url)).text(), 'approve');
    const paymentId = (await row(token)).providerReference!;
    await setBehaviour(iyzico.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });

    const back = await postCallback(answer.callbackUrl, answer.fields);

    expect(back.status).toBeLessThan(500);
    expect(await row(token)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    expect(await eventsOf(t, token)).toEqual([]);
    const charged = async () => (await emulatorState(iyzico.emulator)).payments.find((p) => p.paymentId === paymentId)?.status;
    await expect.poll(charged, { timeout: 5_000 }).toBe('SUCCESS');

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 1_000);
    await runJobsDueBy(t);

    expect(iyzicoCalls(t, 'paymentStatus').filter((c) => c.request.paymentId === paymentId)).toHaveLength(1);
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: paymentId });
    expect(await retrieve(token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });
});
