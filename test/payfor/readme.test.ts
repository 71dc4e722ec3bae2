// The README's QNB Finansbank PayFor example, run as written (as test/readme-bank-emulators.test.ts
// runs EST's and Garanti's): its emulator line (npm run emulator -- payfor), its account line (npm
// run gateway -- account create) against a gateway that made the demo workspace as `npm start`
// does, then the README's payment block: the redirect_url takes the card to PayFor's 3D gate and
// ACS, and Approve completes the payment. Only the port is changed, to a free one, in both blocks.
import { expect, it } from 'vitest';
import { PAYFOR_DEFAULT_PORT } from '../../emulators/payfor/cli.ts';
import { postCallback } from '../helpers/payments.ts';
import { useReadmeBankExamples } from '../helpers/readme-bank.ts';
import { answerPayforAcs, bankFormOf } from './helpers.ts';

const readme = useReadmeBankExamples();

it('PayFor: the emulator, the account on it, a 3-D payment through its gate and ACS', { timeout: 240_000 }, async () => {
  const { emulator, url, account } = await readme.startExample('payfor', PAYFOR_DEFAULT_PORT);
  const { token, redirectUrl } = await readme.createAccountAndPay(account);

  const form = await bankFormOf(redirectUrl);
  expect(form.action).toBe(`${url}/Gateway/Default.aspx`);
  expect(form.fields).toMatchObject({ MerchantID: '085300000009704', UserCode: 'QNB_API_KULLANICI_3DPAY', SecureType: '3DModel' });
  const acs = await answerPayforAcs(form, 'approve');
  expect((await postCallback(acs.callbackUrl, acs.fields)).status).toBe(200);
  expect(await readme.paymentOf(token)).toMatchObject({ status: 'successful', amount: 10_000n });
  const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ charged: number }> };
  expect(state.orders.map((o) => o.charged)).toEqual([10_000]);
  await readme.stopped(emulator, url);
});
