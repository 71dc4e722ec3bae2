// The README's InterPOS example run as written: its emulator line (npm run emulator) and its
// account line (npm run gateway -- account create) are read from README.md and run by bash against
// a gateway on a test database that made the demo workspace as `npm start` does; the README's
// payment block then answers a redirect_url whose bank form goes to that emulator's gate, and
// Approve on its ACS completes the payment. Only the port moves, to a free one, in both blocks.
import { expect, it } from 'vitest';
import { INTERPOS_DEFAULT_PORT } from '../../emulators/interpos/cli.ts';
import { postCallback } from '../helpers/payments.ts';
import { useReadmeBankExamples } from '../helpers/readme-bank.ts';
import { answerInterPos, bankFormOf } from './gateway-support.ts';

const readme = useReadmeBankExamples();

it("README's InterPOS example: the emulator, the account on it, a 3-D payment through its gate and ACS", { timeout: 240_000 }, async () => {
  const { emulator, url, account } = await readme.startExample('interpos', INTERPOS_DEFAULT_PORT);
  const { token, redirectUrl } = await readme.createAccountAndPay(account);

  const form = await bankFormOf(redirectUrl);
  expect(form.action).toBe(`${url}/mpi/Default.aspx`);
  expect(form.fields).toMatchObject({ ShopCode: '3123', SecureType: '3DModel', PurchAmount: '100' });
  const acs = await answerInterPos(form, 'approve');
  expect(acs.fields).toMatchObject({ mdStatus: '1', ShopCode: '3123' });
  expect((await postCallback(acs.callbackUrl, acs.fields)).status).toBe(200);
  expect(await readme.paymentOf(token)).toMatchObject({ status: 'successful', amount: 10_000n });
  const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ charged: number }> };
  expect(state.orders.map((o) => o.charged)).toEqual([10_000]);
  await readme.stopped(emulator, url);
});
