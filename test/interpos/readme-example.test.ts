// The README's InterPOS example run as written: its emulator line (npm run emulator) and its
// account line (npm run gateway -- account create) are read from README.md and run by bash against
// a gateway on a test database that made the demo workspace as `npm start` does; the README's
// payment block then answers a redirect_url whose bank form goes to that emulator's gate, and
// Approve on its ACS completes the payment. Only the port moves, to a free one, in both blocks.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { INTERPOS_DEFAULT_PORT } from '../../emulators/interpos/cli.ts';
import { useProcessGroups, waitForOutput } from '../helpers/emulator-process.ts';
import { useResources } from '../helpers/fixture.ts';
import { TEST_MASTER_KEY, type TestGateway } from '../helpers/gateway.ts';
import { ROOT } from '../helpers/gateway-process.ts';
import { postCallback } from '../helpers/payments.ts';
import { freePort } from '../helpers/ports.ts';
import { answerInterPos, bankFormOf } from './gateway-support.ts';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const block = (text: string): string => {
  const found = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).filter((b) => b.includes(text));
  expect(found, `README shell blocks containing "${text}"`).toHaveLength(1);
  return found[0]!;
};

const resources = useResources();
const processes = useProcessGroups();
let t: TestGateway;
beforeAll(async () => {
  t = await resources.startGateway({ seedDemo: true });
}, 120_000);

async function run(script: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'GATEWAY_MASTER_KEY', 'DATA_DIR', 'BASE_URL', 'PORT', 'HOST', 'NODE_ENV', 'SEED_DEMO']) delete env[name];
  const { stdout } = await promisify(execFile)('bash', ['-e', '-c', script], { cwd: ROOT, env: { ...env, DATABASE_URL: t.databaseUrl, GATEWAY_MASTER_KEY: TEST_MASTER_KEY, DATA_DIR: t.dataDir }, timeout: 120_000 });
  return stdout;
}

it("README's InterPOS example: the emulator, the account on it, a 3-D payment through its gate and ACS", { timeout: 240_000 }, async () => {
  const emulatorLine = block('npm run emulator -- interpos ');
  const port = Number(/--port (\d+)/.exec(emulatorLine)?.[1]);
  expect(port).toBe(INTERPOS_DEFAULT_PORT);
  const free = await freePort();
  const emulator = processes.start('bash', ['-c', emulatorLine.replace(`--port ${port}`, `--port ${free}`)]);
  await waitForOutput(emulator, 'controls:');
  const url = `http://127.0.0.1:${free}`;

  expect(await run(block('account create demo interpos-test').replaceAll(`http://127.0.0.1:${port}/`, `${url}/`))).toMatch(/payment_provider_token/);
  await t.gateway.admission.synced();
  const answer = JSON.parse(await run(block('/gateway/secure-payment'))) as { result: { redirect_url: string }; transaction: { token: string } };
  const form = await bankFormOf(answer.result.redirect_url);
  expect(form.action).toBe(`${url}/mpi/Default.aspx`);
  expect(form.fields).toMatchObject({ ShopCode: '3123', SecureType: '3DModel', PurchAmount: '100' });
  const acs = await answerInterPos(form, 'approve');
  expect(acs.fields).toMatchObject({ mdStatus: '1', ShopCode: '3123' });
  expect((await postCallback(acs.callbackUrl, acs.fields)).status).toBe(200);
  const payment = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: answer.transaction.token } });
  expect(payment).toMatchObject({ status: 'successful', amount: 10_000n });
  const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ charged: number }> };
  expect(state.orders.map((o) => o.charged)).toEqual([10_000]);
  await emulator.stop();
});
