// The README's "Trying a provider on its emulator" for the banks, run as written: its shell blocks
// are read from README.md and run by bash from the repository's root against a gateway on a test
// database that made the demo workspace as `npm start` does. The emulator line starts the EST,
// Garanti, PosNet or PayFlex emulator (npm run emulator), the account line makes the demo workspace's
// default account on it (npm run gateway), and the payment block's secure-payment answers a
// redirect_url that takes the card to that emulator's 3D gate and ACS; Approve there completes
// the payment. Only the port is changed, to a free one, in both blocks alike: the account must
// name the port the emulator line listens on, and that port must be the emulator's own default.
import { describe, expect, it } from 'vitest';
import { EST_DEFAULT_PORT } from '../emulators/est/cli.ts';
import { GARANTI_DEFAULT_PORT } from '../emulators/garanti/cli.ts';
import { IYZICO_DEFAULT_PORT } from '../emulators/iyzico/cli.ts';
import { POSNET_DEFAULT_PORT } from '../emulators/posnet/cli.ts';
import { PAYFLEX_DEFAULT_PORT } from '../emulators/payflex/cli.ts';
import { answerEstAcs } from './helpers/est.ts';
import { answerGarantiAcs, bankFormOf } from './helpers/garanti.ts';
import { autoPostForm, postCallback } from './helpers/payments.ts';
import { walkGate } from './helpers/bank-contract.ts';
import { readmeBlock as block, useReadmeBankExamples } from './helpers/readme-bank.ts';

const { gateway, startExample: startReadmeExample, createAccountAndPay, stopped, paymentOf } = useReadmeBankExamples();

describe("README's bank emulator examples, run as written", { timeout: 240_000 }, () => {
  it('the three emulators the README starts listen on three different ports', () => {
    const ports = ['iyzico', 'est', 'garanti'].map((name) => Number(/--port (\d+)/.exec(block(`npm run emulator -- ${name} `))?.[1]));
    expect(ports).toEqual([IYZICO_DEFAULT_PORT, EST_DEFAULT_PORT, GARANTI_DEFAULT_PORT]);
    expect(new Set(ports).size).toBe(3);
  });

  it('EST: the emulator, the account on it, a 3-D payment through its gate and ACS', async () => {
    const { emulator, url, account } = await startReadmeExample('est', EST_DEFAULT_PORT);
    const { token, redirectUrl } = await createAccountAndPay(account);

    const acs = await answerEstAcs(redirectUrl, 'approve');
    expect(acs.bank.action).toBe(`${url}/fim/est3Dgate`);
    expect(acs.acsUrl.startsWith(`${url}/_emulator/acs/`)).toBe(true);
    expect(acs.fields).toMatchObject({ mdStatus: '1', clientid: '190100000' });
    expect((await postCallback(acs.callbackUrl, acs.fields)).status).toBe(200);
    expect(await paymentOf(token)).toMatchObject({ status: 'successful', amount: 10_000n, account: { name: 'est-test', provider: 'est' } });
    const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ transactions: Array<{ status: string; amountMinor: number }> }> };
    expect(state.orders.flatMap((o) => o.transactions)).toEqual([expect.objectContaining({ status: 'A', amountMinor: 10_000 })]);
    await stopped(emulator, url);
  });

  it('Garanti: the emulator, the account on it, a 3-D payment through its gate and ACS', async () => {
    const { emulator, url, account } = await startReadmeExample('garanti', GARANTI_DEFAULT_PORT);
    const { token, redirectUrl } = await createAccountAndPay(account);

    const form = await bankFormOf(redirectUrl);
    expect(form.action).toBe(`${url}/servlet/gt3dengine`);
    expect(form.fields).toMatchObject({ terminalid: '30691298', terminalmerchantid: '7000679', secure3dsecuritylevel: '3D' });
    const acs = await answerGarantiAcs(form, 'approve');
    expect(acs.fields).toMatchObject({ mdstatus: '1', terminalid: '30691298' });
    expect((await postCallback(acs.callbackUrl, acs.fields)).status).toBe(200);
    expect(await paymentOf(token)).toMatchObject({ status: 'successful', amount: 10_000n, account: { name: 'garanti-test', provider: 'garanti' } });
    const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ charged: number }> };
    expect(state.orders.map((o) => o.charged)).toEqual([10_000]);
    await stopped(emulator, url);
  });

  it('PosNet: the emulator, the account on it, a 3-D payment through its 3-D service and ACS', async () => {
    const { emulator, url, account } = await startReadmeExample('posnet', POSNET_DEFAULT_PORT);
    const { token, redirectUrl } = await createAccountAndPay(account);

    const bank = autoPostForm(await (await fetch(redirectUrl)).text());
    expect(bank).toMatchObject({ action: `${url}/3DSWebService/YKBPaymentService`, fields: { mid: '6706598320', posnetID: '27426' } });
    const fields = await walkGate({ kind: 'form', action: bank!.action, fields: bank!.fields });
    expect((await postCallback(`${gateway().gateway.baseUrl}/checkout/3ds/callback/${token}`, fields)).status).toBe(200);
    expect(await paymentOf(token)).toMatchObject({ status: 'successful', amount: 10_000n, account: { name: 'posnet-test', provider: 'posnet' } });
    const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ lines: Array<{ state: string; amount: number }> }> };
    expect(state.orders.flatMap((o) => o.lines)).toEqual([expect.objectContaining({ state: 'Sale', amount: 10_000 })]);
    await stopped(emulator, url);
  });

  it('PayFlex: the emulator, the account on it, a 3-D payment through its MPI and ACS', async () => {
    const { emulator, url, account } = await startReadmeExample('payflex', PAYFLEX_DEFAULT_PORT);
    const { token, redirectUrl } = await createAccountAndPay(account);

    const acs = autoPostForm(await (await fetch(redirectUrl)).text());
    expect(acs?.action.startsWith(`${url}/_emulator/acs/`)).toBe(true);
    const fields = await walkGate({ kind: 'form', action: acs!.action, fields: acs!.fields });
    expect(fields).toMatchObject({ MerchantId: '000000000111111', Status: 'Y' });
    expect((await postCallback(`${gateway().gateway.baseUrl}/checkout/3ds/callback/${token}`, fields)).status).toBe(200);
    expect(await paymentOf(token)).toMatchObject({ status: 'successful', amount: 10_000n, account: { name: 'payflex-test', provider: 'payflex' } });
    const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ charged: number }> };
    expect(state.orders.map((o) => o.charged)).toEqual([10_000]);
    await stopped(emulator, url);
  });
});
