// The README's "Trying a provider on its emulator" for the banks, run as written: its shell blocks
// are read from README.md and run by bash from the repository's root against a gateway on a test
// database that made the demo workspace as `npm start` does. The emulator line starts the EST,
// Garanti, PosNet or PayFlex emulator (npm run emulator), the account line makes the demo workspace's
// default account on it (npm run gateway), and the payment block's secure-payment answers a
// redirect_url that takes the card to that emulator's 3D gate and ACS; Approve there completes
// the payment. Only the port is changed, to a free one, in both blocks alike: the account must
// name the port the emulator line listens on, and that port must be the emulator's own default.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { EST_DEFAULT_PORT } from '../emulators/est/cli.ts';
import { GARANTI_DEFAULT_PORT } from '../emulators/garanti/cli.ts';
import { IYZICO_DEFAULT_PORT } from '../emulators/iyzico/cli.ts';
import { POSNET_DEFAULT_PORT } from '../emulators/posnet/cli.ts';
import { PAYFLEX_DEFAULT_PORT } from '../emulators/payflex/cli.ts';
import { useResources } from './helpers/fixture.ts';
import { TEST_MASTER_KEY, type TestGateway } from './helpers/gateway.ts';
import { ROOT, waitUntil } from './helpers/gateway-process.ts';
import { useProcessGroups, waitForOutput, type RunningGroup } from './helpers/emulator-process.ts';
import { acceptsConnections, freePort } from './helpers/ports.ts';
import { answerEstAcs } from './helpers/est.ts';
import { answerGarantiAcs, bankFormOf } from './helpers/garanti.ts';
import { autoPostForm, postCallback } from './helpers/payments.ts';
import { walkGate } from './helpers/bank-contract.ts';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SH_BLOCKS = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

/** The one shell block of the README that contains `text`. */
function block(text: string): string {
  const found = SH_BLOCKS.filter((b) => b.includes(text));
  expect(found, `README shell blocks containing "${text}"`).toHaveLength(1);
  return found[0]!;
}

const resources = useResources();
const processes = useProcessGroups();
let t: TestGateway;

beforeAll(async () => {
  t = await resources.startGateway({ seedDemo: true });
}, 120_000);

/** A shell's environment for the gateway's database and data folder, none of the test run's own settings. */
function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'GATEWAY_MASTER_KEY', 'DATA_DIR', 'BASE_URL', 'PORT', 'HOST', 'NODE_ENV', 'SEED_DEMO']) delete env[name];
  return { ...env, DATABASE_URL: t.databaseUrl, GATEWAY_MASTER_KEY: TEST_MASTER_KEY, DATA_DIR: t.dataDir };
}

/** Runs a block to its end, as pasted into bash (stopping at the first failing command). */
async function runBlock(script: string): Promise<string> {
  const { stdout } = await promisify(execFile)('bash', ['-e', '-c', script], { cwd: ROOT, env: shellEnv(), timeout: 120_000 });
  return stdout;
}

/** The README's emulator and account blocks of `name`, their port moved to a free one; the emulator started. */
async function startReadmeExample(name: string, defaultPort: number): Promise<{ emulator: RunningGroup; url: string; account: string }> {
  const emulatorLine = block(`npm run emulator -- ${name} `);
  const account = block(`account create demo ${name}-test`);
  const port = Number(/--port (\d+)/.exec(emulatorLine)?.[1]);
  expect(port).toBe(defaultPort);
  expect(account).toContain(`http://127.0.0.1:${port}/`);
  const free = await freePort();
  const emulator = processes.start('bash', ['-c', emulatorLine.replace(`--port ${port}`, `--port ${free}`)]);
  await waitForOutput(emulator, 'controls:');
  const url = `http://127.0.0.1:${free}`;
  expect(emulator.output()).toContain(`listening on ${url}`);
  return { emulator, url, account: account.replaceAll(`http://127.0.0.1:${port}/`, `${url}/`) };
}

/** The account block, then the payment block: the demo workspace's secure-payment answer. */
async function createAccountAndPay(account: string): Promise<{ token: string; redirectUrl: string }> {
  expect(await runBlock(account)).toMatch(/payment_provider_token/);
  // A person pastes the next block some time later; the gateway learns of the new default in milliseconds.
  await t.gateway.admission.synced();
  const answer = JSON.parse(await runBlock(block('/gateway/secure-payment'))) as { result: { successful: boolean; redirect_url: string }; transaction: { token: string } };
  expect(answer.result.successful, JSON.stringify(answer)).toBe(true);
  expect(answer.result.redirect_url.startsWith(`${t.gateway.baseUrl}/checkout/3ds/`)).toBe(true);
  return { token: answer.transaction.token, redirectUrl: answer.result.redirect_url };
}

/** Stops the emulator the README's line started (npm, tsx and node: the whole group) and waits for its port to close. */
async function stopped(emulator: RunningGroup, url: string): Promise<void> {
  await emulator.stop();
  // bash ends at once; the emulator under it closes its port as it handles the signal.
  await waitUntil(async () => !(await acceptsConnections(Number(new URL(url).port))), 10_000, `${url} closed`);
}

/** The payment and the account that took it. */
async function paymentOf(token: string) {
  const db = t.gateway.services.db;
  const payment = await db.payment.findUniqueOrThrow({ where: { id: token } });
  const account = await db.paymentAccount.findUniqueOrThrow({ where: { id: payment.paymentAccountId! } });
  return { status: payment.status, amount: payment.amount, account: { name: account.name, provider: account.provider } };
}

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
    expect((await postCallback(`${t.gateway.baseUrl}/checkout/3ds/callback/${token}`, fields)).status).toBe(200);
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
    expect((await postCallback(`${t.gateway.baseUrl}/checkout/3ds/callback/${token}`, fields)).status).toBe(200);
    expect(await paymentOf(token)).toMatchObject({ status: 'successful', amount: 10_000n, account: { name: 'payflex-test', provider: 'payflex' } });
    const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ charged: number }> };
    expect(state.orders.map((o) => o.charged)).toEqual([10_000]);
    await stopped(emulator, url);
  });
});
