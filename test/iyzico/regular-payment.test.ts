// regular-payment through an iyzico account (the repo's emulator on 127.0.0.1): the answer is the
// one the simulator gives, iyzico holds the payment under the gateway's key with the shopper and
// one basket item, no card number or CVC is kept or logged; each sandbox refusal becomes the
// gateway's error_code and catalog message (iyzico's own code kept on the payment for support).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg, type MessageCode } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { emulatorPayments, IYZICO_CARDS, seedIyzicoMerchant, setBehaviour, useIyzicoEmulator } from '../helpers/iyzico.ts';
import type { Merchant } from '../helpers/gateway.ts';

const { t } = useGateway();
const iyzico = useIyzicoEmulator();
let reference = 100;

async function merchant(): Promise<Merchant> {
  return seedIyzicoMerchant(t, iyzico.emulator);
}

const pay = (m: Merchant, number: string, headers: Record<string, string> = {}) =>
  m.call('regular-payment', paymentBody(m, { card: { number, security_code: '987' }, transaction: { channel_reference: `IYZ-${reference++}` } }), { headers });

describe('regular-payment approved by iyzico', () => {
  it('answers as for the simulator; iyzico holds the payment under <payment id>:charge with the shopper and one basket item', async () => {
    const m = await merchant();
    const res = await m.call(
      'regular-payment',
      paymentBody(m, {
        card: { number: IYZICO_CARDS.approved, security_code: '987' },
        transaction: { channel_reference: 'IYZ-1001', amount: '150.75', ip: '85.34.78.112' },
        customer: { channel_reference: 'CUST-1', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com.tr' },
      }),
    );

    expect(res.status, res.text).toBe(200);
    const token = res.body.transaction.token as string;
    expect(res.body).toEqual({
      result: { successful: true, message: null },
      transaction: { token, channel_token: m.channelToken, channel_reference: 'IYZ-1001' },
      customer: { channel_reference: 'CUST-1' },
      conversion: null,
    });
    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);

    const [held, ...others] = await emulatorPayments(iyzico.emulator, `${token}:charge`);
    expect(others).toEqual([]);
    expect(held).toMatchObject({ status: 'SUCCESS', price: 15_075, paidPrice: 15_075, currency: 'TRY', installment: 1, threeDS: false });
    expect(held!.items).toHaveLength(1);
    expect(held!.items[0]).toMatchObject({ price: 15_075, paidPrice: 15_075, refunded: 0 });
    expect(held!.card).toMatchObject({ binNumber: '552879', lastFourDigits: '0008' });

    const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
    expect(row).toMatchObject({ status: 'successful', providerReference: held!.paymentId, cardLastFourDigits: '0008' });
  });

  it('sends the buyer\u2019s e-mail, name and IP to iyzico', async () => {
    const m = await merchant();
    const seen: Array<Record<string, unknown>> = [];
    // The emulator does not keep the buyer: read it off the wire between the gateway and the emulator.
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (body) seen.push(JSON.parse(body) as Record<string, unknown>);
        const answer = await fetch(`${iyzico.emulator.url}${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body: body || undefined });
        const text = await answer.text();
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = proxy.address() as AddressInfo;
      await t.gateway.services.db.paymentAccount.update({ where: { id: m.accountToken }, data: { settings: { base_url: `http://127.0.0.1:${port}`, timeout_ms: 60_000 } } });
      await t.gateway.admission.synced();
      const res = await m.call(
        'regular-payment',
        paymentBody(m, {
          card: { number: IYZICO_CARDS.approved },
          transaction: { channel_reference: 'IYZ-1002', ip: '85.34.78.112' },
          customer: { channel_reference: 'CUST-2', firstname: 'Mehmet', lastname: 'Demir', email: 'mehmet@example.com.tr' },
        }),
      );
      expect(res.body.result).toEqual({ successful: true, message: null });
      const sent = seen.find((b) => b.conversationId === `${res.body.transaction.token}:charge`);
      expect(sent).toMatchObject({
        buyer: { email: 'mehmet@example.com.tr', name: 'Mehmet', surname: 'Demir', ip: '85.34.78.112' },
        basketItems: [expect.objectContaining({ price: '100.0', itemType: 'VIRTUAL' })],
      });
      expect(sent!.basketItems).toHaveLength(1);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('keeps no full card number or CVC in the database or the logs', async () => {
    const m = await merchant();
    const cvc = '739';
    const res = await m.call(
      'regular-payment',
      paymentBody(m, { card: { number: IYZICO_CARDS.approvedVisa, security_code: cvc, should_save: true }, transaction: { channel_reference: 'IYZ-1003' } }),
    );
    expect(res.body.result).toEqual({ successful: true, message: null });
    const declined = await pay(m, IYZICO_CARDS.insufficientFunds);
    expect(declined.body.result.successful).toBe(false);

    const db = t.gateway.services.db;
    const rows = JSON.stringify(
      { payments: await db.payment.findMany({ where: { workspaceId: m.workspaceId } }), cards: await db.savedCard.findMany({}) },
      (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
    );
    expect(rows).toContain('0000'); // the last four digits are kept
    for (const secret of [IYZICO_CARDS.approvedVisa, IYZICO_CARDS.insufficientFunds, `"${cvc}"`, '"987"']) {
      expect(rows).not.toContain(secret);
      expect(t.logLines.join('\n')).not.toContain(secret);
    }
    // The CVC as a value anywhere in the logs (the iyzico exchange is logged with its card fields scrubbed).
    expect(t.logLines.join('\n')).not.toMatch(new RegExp(`[":]${cvc}\\b`));
  });
});

describe('regular-payment refused by iyzico', () => {
  // Each sandbox error card: the gateway's code and catalog message, iyzico's code kept on the payment.
  it.each([
    ['insufficient funds', IYZICO_CARDS.insufficientFunds, 'insufficient_funds', '10051'],
    ['do not honour', IYZICO_CARDS.doNotHonour, 'card_declined', '10005'],
    ['invalid transaction', IYZICO_CARDS.invalidTransaction, 'card_declined', '10012'],
    ['lost card', IYZICO_CARDS.lost, 'card_declined', '10043'],
    ['stolen card', IYZICO_CARDS.stolen, 'card_declined', '10043'],
    ['expired card', IYZICO_CARDS.expired, 'expired_card', '10054'],
    ['invalid CVC', IYZICO_CARDS.invalidCvc, 'invalid_cvc', '10084'],
    ['not permitted to the cardholder', IYZICO_CARDS.notPermittedToCardholder, 'card_declined', '10057'],
    ['not permitted to the terminal', IYZICO_CARDS.notPermittedToTerminal, 'provider_error', '10058'],
    ['fraud suspect', IYZICO_CARDS.fraud, 'card_declined', '10034'],
    ['pickup card', IYZICO_CARDS.pickup, 'card_declined', '10041'],
    ['general bank error', IYZICO_CARDS.generalError, 'provider_error', '10202'],
    ['a number the sandbox does not know', '4000000000000002', 'invalid_card_number', '12'],
  ] as const)('%s: successful false, %s', async (_name, number, code, providerCode) => {
    const m = await merchant();
    const res = await pay(m, number);

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: msg(`decline_${code}` as MessageCode), error_code: code });
    const token = res.body.transaction.token as string;
    const english = await m.call('retrieve-payment', { transaction: { token } }, { headers: { 'Accept-Language': 'en' } });
    expect(english.body.result).toEqual({ successful: false, message: msg(`decline_${code}` as MessageCode, {}, 'en'), error_code: code });
    const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
    expect(row).toMatchObject({ status: 'failed', errorCode: code, providerErrorCode: providerCode, providerErrorMessage: expect.any(String) });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
  });

  it('answers English catalog text with Accept-Language: en, never iyzico\u2019s own', async () => {
    const m = await merchant();
    const res = await pay(m, IYZICO_CARDS.insufficientFunds, { 'Accept-Language': 'en' });
    expect(res.body.result).toEqual({ successful: false, message: 'Insufficient funds', error_code: 'insufficient_funds' });
    const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: res.body.transaction.token } });
    expect(row.providerErrorMessage).not.toBe('Insufficient funds');
    expect(res.text).not.toContain(row.providerErrorMessage!);
  });

  it('a bank refusal without a card reason (emulator decline mode) is card_declined', async () => {
    const m = await merchant();
    await setBehaviour(iyzico.emulator, { mode: 'decline' });
    const res = await pay(m, IYZICO_CARDS.debit);
    expect(res.body.result).toEqual({ successful: false, message: msg('decline_card_declined'), error_code: 'card_declined' });
    const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: res.body.transaction.token } });
    expect(row.providerErrorCode).toBe('10005');
  });

  it('iyzico\u2019s system error (emulator fail mode) is provider_error', async () => {
    const m = await merchant();
    // Every call fails: the BIN lookup before the charge too (routing asks it; its failure leaves the card unknown).
    await setBehaviour(iyzico.emulator, { mode: 'fail', count: -1 });
    const res = await pay(m, IYZICO_CARDS.approved);

    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: msg('decline_provider_error'), error_code: 'provider_error' });
    const token = res.body.transaction.token as string;
    const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
    expect(row).toMatchObject({ status: 'failed', errorCode: 'provider_error', providerErrorCode: '1' });
    expect(await emulatorPayments(iyzico.emulator, `${token}:charge`)).toEqual([]);
  });
});
