// The README's Akbank virtual POS example, run as written (as test/readme-bank-emulators.test.ts
// runs EST's and Garanti's): its emulator line (npm run emulator -- akbank-pos), its account line
// (npm run gateway -- account create) against a gateway that made the demo workspace as `npm
// start` does, then the README's payment block: the redirect_url takes the card to Akbank's 3-D
// gate and ACS, and Approve completes the payment. Only the port is changed, to a free one, in
// both blocks.
import { expect, it } from 'vitest';
import { AKBANK_POS_DEFAULT_PORT } from '../../emulators/akbank-pos/cli.ts';
import { postCallback } from '../helpers/payments.ts';
import { useReadmeBankExamples } from '../helpers/readme-bank.ts';
import { answerAkbankAcs, bankFormOf } from './helpers.ts';

const readme = useReadmeBankExamples();

it('Akbank: the emulator, the account on it, a 3-D payment through its gate and ACS', { timeout: 240_000 }, async () => {
  const { emulator, url, account } = await readme.startExample('akbank-pos', AKBANK_POS_DEFAULT_PORT, 'akbank-test');
  const { token, redirectUrl } = await readme.createAccountAndPay(account);

  const form = await bankFormOf(redirectUrl);
  expect(form.action).toBe(`${url}/securepay`);
  expect(form.fields).toMatchObject({ merchantSafeId: '2023090417500272654BD9A49CF07574', terminalSafeId: '2023090417500284633D137A249DBBEB', paymentModel: '3D' });
  const acs = await answerAkbankAcs(form, 'approve');
  expect((await postCallback(acs.callbackUrl, acs.fields)).status).toBe(200);
  expect(await readme.paymentOf(token)).toMatchObject({ status: 'successful', amount: 10_000n });
  const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ charged: number }> };
  expect(state.orders.map((o) => o.charged)).toEqual([10_000]);
  await readme.stopped(emulator, url);
});
