// The README's Kuveyt Türk KuveytPOS example, run as written (as test/readme-bank-emulators.test.ts
// runs EST's and Garanti's): its emulator line (npm run emulator -- kuveytpos), its account line
// (npm run gateway -- account create) against a gateway that made the demo workspace as `npm start`
// does, then the README's payment block: the gateway takes the card to KuveytPOS's 3-D gate, the
// redirect_url to its ACS, and Approve completes the payment with the provision. Only the port is
// changed, to a free one, in both blocks.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { KUVEYTPOS_DEFAULT_PORT } from '../../emulators/kuveytpos/cli.ts';
import { useResources } from '../helpers/fixture.ts';
import { TEST_MASTER_KEY, type TestGateway } from '../helpers/gateway.ts';
import { ROOT } from '../helpers/gateway-process.ts';
import { useProcessGroups, waitForOutput } from '../helpers/emulator-process.ts';
import { freePort } from '../helpers/ports.ts';
import { postCallback } from '../helpers/payments.ts';
import { acsTrip } from './helpers.ts';

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

it('KuveytPOS: the emulator, the account on it, a 3-D payment through its gate, ACS and provision', { timeout: 240_000 }, async () => {
  const emulatorLine = block('npm run emulator -- kuveytpos ');
  const port = Number(/--port (\d+)/.exec(emulatorLine)?.[1]);
  expect(port).toBe(KUVEYTPOS_DEFAULT_PORT);
  const free = await freePort();
  const url = `http://127.0.0.1:${free}`;
  const emulator = processes.start('bash', ['-c', emulatorLine.replace(`--port ${port}`, `--port ${free}`)]);
  await waitForOutput(emulator, 'controls:');
  const account = block('account create demo kuveytpos-test').replaceAll(`http://127.0.0.1:${port}/`, `${url}/`);

  expect(await runBlock(account)).toMatch(/payment_provider_token/);
  await t.gateway.admission.synced();
  const answer = JSON.parse(await runBlock(block('/gateway/secure-payment'))) as { result: { successful: boolean; redirect_url: string }; transaction: { token: string } };
  expect(answer.result.successful, JSON.stringify(answer)).toBe(true);

  const trip = await acsTrip(answer.result.redirect_url, 'approve');
  expect(trip.bankForm.action).toMatch(new RegExp(`^${url}/_emulator/acs/`));
  expect((await postCallback(trip.callbackUrl, trip.fields)).status).toBe(200);
  const payment = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: answer.transaction.token } });
  expect(payment).toMatchObject({ status: 'successful', amount: 10_000n });
  const state = (await (await fetch(`${url}/_emulator/state`)).json()) as { orders: Array<{ responseCode: string; amount: number; transactionSecurity: string }> };
  expect(state.orders.map((o) => [o.responseCode, o.amount, o.transactionSecurity])).toEqual([['00', 10_000, '3']]);
  await emulator.stop();
});
