// The README's VakıfBank PayFlex example, run as written (as test/readme-bank-emulators.test.ts
// runs EST's and Garanti's): its emulator line (npm run emulator -- payflex), its account line (npm
// run gateway -- account create) against a gateway that made the demo workspace as `npm start`
// does, then the README's payment block: the gateway asks the emulator's MPI, the redirect_url
// takes the shopper to its ACS, and Approve completes the payment. Only the port is changed, to a
// free one, in both blocks.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { PAYFLEX_DEFAULT_PORT } from '../../emulators/payflex/cli.ts';
import { useResources } from '../helpers/fixture.ts';
import { TEST_MASTER_KEY, type TestGateway } from '../helpers/gateway.ts';
import { ROOT } from '../helpers/gateway-process.ts';
import { useProcessGroups, waitForOutput } from '../helpers/emulator-process.ts';
import { freePort } from '../helpers/ports.ts';
import { postCallback } from '../helpers/payments.ts';
import { answerPayflexAcs } from './helpers.ts';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SH_BLOCKS = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
const block = (text: string): string => {
  const found = SH_BLOCKS.filter((b) => b.includes(text));
  expect(found, `README shell blocks containing "${text}"`).toHaveLength(1);
  return found[0]!;
};

const resources = useResources();
const processes = useProcessGroups();
let t: TestGateway;
beforeAll(async () => {
  t = await resources.startGateway({ seedDemo: true });
}, 120_000);

function runBlock(script: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'GATEWAY_MASTER_KEY', 'DATA_DIR', 'BASE_URL', 'PORT', 'HOST', 'NODE_ENV', 'SEED_DEMO']) delete env[name];
  const shell = { ...env, DATABASE_URL: t.databaseUrl, GATEWAY_MASTER_KEY: TEST_MASTER_KEY, DATA_DIR: t.dataDir };
  return promisify(execFile)('bash', ['-e', '-c', script], { cwd: ROOT, env: shell, timeout: 120_000 }).then((r) => r.stdout);
}

it('PayFlex: the emulator, the account on it, a 3-D payment through its MPI and ACS', { timeout: 240_000 }, async () => {
  const emulatorLine = block('npm run emulator -- payflex ');
  const port = Number(/--port (\d+)/.exec(emulatorLine)?.[1]);
  expect(port).toBe(PAYFLEX_DEFAULT_PORT);
  const free = await freePort();
  const url = `http://127.0.0.1:${free}`;
  const emulator = processes.start('bash', ['-c', emulatorLine.replace(`--port ${port}`, `--port ${free}`)]);
  await waitForOutput(emulator, 'controls:');
  const account = block('account create demo payflex-test').replaceAll(`http://127.0.0.1:${port}/`, `${url}/`);

  expect(await runBlock(account)).toMatch(/payment_provider_token/);
  await t.gateway.admission.synced();
  const answer = JSON.parse(await runBlock(block('/gateway/secure-payment'))) as { result: { successful: boolean; redirect_url: string }; transaction: { token: string } };
  expect(answer.result.successful, JSON.stringify(answer)).toBe(true);

  const { form, fields } = await answerPayflexAcs(answer.result.redirect_url, 'approve');
  expect(form.action.startsWith(`${url}/_emulator/acs/`)).toBe(true);
  expect(fields).toMatchObject({ MerchantId: '000000000111111', Status: 'Y' });
  const callback = new URL(`/checkout/3ds/callback/${answer.transaction.token}`, answer.result.redirect_url).href;
  expect((await postCallback(callback, fields)).status).toBe(200);
  const payment = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: answer.transaction.token } });
  expect(payment).toMatchObject({ status: 'successful', amount: 10_000n });
  const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ charged: number }> };
  expect(state.orders.map((o) => o.charged)).toEqual([10_000]);
  await emulator.stop();
});
