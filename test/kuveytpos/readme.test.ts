// The README's Kuveyt Türk KuveytPOS example, run as written (as test/readme-bank-emulators.test.ts
// runs EST's and Garanti's): its emulator line (npm run emulator -- kuveytpos), its account line
// (npm run gateway -- account create) against a gateway that made the demo workspace as `npm start`
// does, then the README's payment block: the gateway takes the card to KuveytPOS's 3-D gate, the
// redirect_url to its ACS, and Approve completes the payment with the provision. Only the port is
// changed, to a free one, in both blocks.
import { expect, it } from 'vitest';
import { KUVEYTPOS_DEFAULT_PORT } from '../../emulators/kuveytpos/cli.ts';
import { postCallback } from '../helpers/payments.ts';
import { bankState } from '../helpers/bank.ts';
import { useReadmeBankExamples } from '../helpers/readme-bank.ts';
import { acsTrip } from './helpers.ts';

const readme = useReadmeBankExamples();

it('KuveytPOS: the emulator, the account on it, a 3-D payment through its gate, ACS and provision', { timeout: 240_000 }, async () => {
  const { emulator, url, account } = await readme.startExample('kuveytpos', KUVEYTPOS_DEFAULT_PORT);
  const { token, redirectUrl } = await readme.createAccountAndPay(account);

  const trip = await acsTrip(redirectUrl, 'approve');
  expect(trip.bankForm.action).toMatch(new RegExp(`^${url}/_emulator/acs/`));
  expect((await postCallback(trip.callbackUrl, trip.fields)).status).toBe(200);
  expect(await readme.paymentOf(token)).toMatchObject({ status: 'successful', amount: 10_000n });
  const state = await bankState<{ orders: Array<{ responseCode: string; amount: number; transactionSecurity: string }> }>({ url });
  expect(state.orders.map((o) => [o.responseCode, o.amount, o.transactionSecurity])).toEqual([['00', 10_000, '3']]);
  await readme.stopped(emulator, url);
});
