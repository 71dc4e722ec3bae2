// Provider attempts against the iyzico emulator (a real HTTP server on 127.0.0.1): a charge iyzico
// answers too late is an attempt with outcome timeout, and the reconcile job's payment/detail
// inquiry a second attempt on the same payment, by the lost charge's key; a card iyzico declines
// keeps iyzico's own error code and text beside the gateway's error_code.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { paymentBody } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { attemptsOf as attemptsStored } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { emulatorPayments, IYZICO_CARDS, seedIyzicoMerchant, setBehaviour, useIyzicoEmulator } from '../helpers/iyzico.ts';

const { t } = useGateway();
const iyzico = useIyzicoEmulator();
let m: Merchant;
let reference = 1;

const pay = (number: string) => m.call('regular-payment', paymentBody(m, { card: { number }, transaction: { channel_reference: `IYZA-${reference++}` } }));
const attemptsOf = (paymentId: string) => attemptsStored(t, paymentId);

describe('iyzico attempts', () => {
  it('a charge answered too late: timeout; the reconcile job\'s inquiry finds it paid: paymentStatus succeeded', async () => {
    m = await seedIyzicoMerchant(t, iyzico.emulator, { timeoutMs: 1_000 });
    // The card's BIN is asked once and kept: the next slow call is the charge.
    expect((await pay(IYZICO_CARDS.approved)).body.result.successful).toBe(true);
    await setBehaviour(iyzico.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });

    const res = await pay(IYZICO_CARDS.approved);
    const token = res.body.transaction.token as string;
    expect(res.body.result.error_code).toBe('provider_timeout');
    const [charge] = await attemptsOf(token);
    expect(charge).toMatchObject({ operation: 'charge', outcome: 'timeout', errorCode: 'provider_timeout', provider: 'iyzico', paymentAccountId: m.accountToken, idempotencyKey: `${token}:charge`, providerCode: null });
    await expect.poll(async () => (await emulatorPayments(iyzico.emulator, `${token}:charge`)).map((p) => p.status), { timeout: 5_000 }).toEqual(['SUCCESS']);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 1_000);
    await runJobsDueBy(t);

    expect((await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).status).toBe('successful');
    expect((await attemptsOf(token)).map((a) => [a.operation, a.outcome, a.idempotencyKey])).toEqual([
      ['charge', 'timeout', `${token}:charge`],
      ['paymentStatus', 'succeeded', `${token}:charge`],
    ]);
  });

  it("a declined card: iyzico's code and text beside the gateway's error_code", async () => {
    const res = await pay(IYZICO_CARDS.insufficientFunds);
    const token = res.body.transaction.token as string;
    const payment = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });

    const [charge] = await attemptsOf(token);
    expect(charge).toMatchObject({ operation: 'charge', outcome: 'declined', errorCode: res.body.result.error_code, provider: 'iyzico' });
    expect(charge!.providerCode).toBeTruthy();
    expect(charge!.providerCode).toBe(payment.providerErrorCode);
    expect(charge!.providerMessage).toBe(payment.providerErrorMessage);
  });
});
