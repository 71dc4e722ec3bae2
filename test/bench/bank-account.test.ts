// The bank phase's account switch on a real gateway: the iyzico account written with bare SQL
// becomes the default that payments go through, and the previous default is back afterwards.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useIyzicoAccount } from '../../bench/lib/bank-account.ts';
import { paymentBody } from '../../bench/lib/gateway-ops.ts';
import type { DemoCredentials } from '../../bench/lib/gateway-process.ts';
import { startIyzicoEmulator, type IyzicoEmulator } from '../../emulators/iyzico/server.ts';
import { seedWorkspace, startTestGateway, TEST_MASTER_KEY, type Merchant, type TestGateway } from '../helpers/gateway.ts';

let t: TestGateway;
let merchant: Merchant;
let bank: IyzicoEmulator;

beforeAll(async () => {
  t = await startTestGateway();
  merchant = await seedWorkspace(t);
  bank = await startIyzicoEmulator({ apiKey: 'bench-key', secretKey: 'bench-secret' });
});
afterAll(async () => {
  await bank?.close();
  await t?.stop();
});

/** A regular-payment as the bank phase sends it, with `card`; answers the account that took it. */
async function pay(card: string): Promise<string | null> {
  const base = paymentBody({ channel_token: merchant.channelToken } as DemoCredentials, 1);
  const res = await merchant.call('regular-payment', { ...base, card: { ...base.card, number: card } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.result.successful).toBe(true);
  const payment = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: res.body.transaction.token as string } });
  return payment.paymentAccountId;
}

it('makes an iyzico account at the emulator the default, then puts the previous default back', async () => {
  const account = await useIyzicoAccount(t.databaseUrl, Buffer.from(TEST_MASTER_KEY, 'hex'), merchant.team, { url: bank.url, apiKey: 'bench-key', secretKey: 'bench-secret' });
  await t.gateway.admission.synced();
  expect(await pay('5528790000000008')).toBe(account.accountId);
  expect(bank.state.snapshot().payments).toHaveLength(1);

  await account.restore();
  await t.gateway.admission.synced();
  expect(await pay('4111111111111111')).toBe(merchant.accountToken);
  expect(bank.state.snapshot().payments).toHaveLength(1);
  const row = await t.gateway.services.db.paymentAccount.findUniqueOrThrow({ where: { id: account.accountId } });
  expect(row.deletedAt).not.toBeNull();
});
