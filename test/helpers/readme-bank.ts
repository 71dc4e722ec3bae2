// The README's bank emulator examples, run as written: its shell blocks are read from README.md and
// run by bash from the repository's root against a gateway on a test database that made the demo
// workspace as `npm start` does. The emulator line starts a bank's emulator (npm run emulator), the
// account line makes the demo workspace's default account on it (npm run gateway), and the payment
// block's secure-payment answers a redirect_url that takes the card to that emulator's 3D gate and
// ACS. Only the port is changed, to a free one, in both blocks alike: the account must name the
// port the emulator line listens on, and that port must be the emulator's own default.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect } from 'vitest';
import { useResources } from './fixture.ts';
import { TEST_MASTER_KEY, type TestGateway } from './gateway.ts';
import { ROOT, waitUntil } from './gateway-process.ts';
import { useProcessGroups, waitForOutput, type RunningGroup } from './emulator-process.ts';
import { acceptsConnections, freePort } from './ports.ts';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SH_BLOCKS = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

/** The one shell block of the README that contains `text`. */
export function readmeBlock(text: string): string {
  const found = SH_BLOCKS.filter((b) => b.includes(text));
  expect(found, `README shell blocks containing "${text}"`).toHaveLength(1);
  return found[0]!;
}

/** A shell's environment for the gateway's database and data folder, none of the test run's own settings (as a reader's shell beside `npm start`). */
export function readmeShellEnv(t: TestGateway): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'GATEWAY_MASTER_KEY', 'DATA_DIR', 'BASE_URL', 'PORT', 'HOST', 'NODE_ENV', 'SEED_DEMO']) delete env[name];
  return { ...env, DATABASE_URL: t.databaseUrl, GATEWAY_MASTER_KEY: TEST_MASTER_KEY, DATA_DIR: t.dataDir };
}

export interface ReadmeBankExamples {
  /** The gateway the blocks run against (set before the file's tests). */
  gateway(): TestGateway;
  /** Runs a block to its end, as pasted into bash (stopping at the first failing command). */
  runBlock(script: string): Promise<string>;
  /** The README's emulator and account blocks of an emulator, their port moved to a free one; the emulator started. */
  startExample(emulator: string, defaultPort: number, accountName?: string): Promise<{ emulator: RunningGroup; url: string; account: string }>;
  /** The account block, then the payment block: the demo workspace's secure-payment answer. */
  createAccountAndPay(account: string): Promise<{ token: string; redirectUrl: string }>;
  /** Stops the emulator the README's line started (npm, tsx and node: the whole group) and waits for its port to close. */
  stopped(emulator: RunningGroup, url: string): Promise<void>;
  /** The payment and the account that took it. */
  paymentOf(token: string): Promise<{ status: string; amount: bigint; account: { name: string; provider: string } }>;
}

/** A gateway (demo workspace made) before the file's tests, and the steps of a README bank example against it. */
export function useReadmeBankExamples(): ReadmeBankExamples {
  const resources = useResources();
  const processes = useProcessGroups();
  let t: TestGateway;
  beforeAll(async () => {
    t = await resources.startGateway({ seedDemo: true });
  }, 120_000);

  async function runBlock(script: string): Promise<string> {
    const { stdout } = await promisify(execFile)('bash', ['-e', '-c', script], { cwd: ROOT, env: readmeShellEnv(t), timeout: 120_000 });
    return stdout;
  }

  return {
    gateway: () => t,
    runBlock,
    async startExample(name, defaultPort, accountName = `${name}-test`) {
      const emulatorLine = readmeBlock(`npm run emulator -- ${name} `);
      const account = readmeBlock(`account create demo ${accountName}`);
      const port = Number(/--port (\d+)/.exec(emulatorLine)?.[1]);
      expect(port).toBe(defaultPort);
      expect(account).toContain(`http://127.0.0.1:${port}/`);
      const free = await freePort();
      const emulator = processes.start('bash', ['-c', emulatorLine.replace(`--port ${port}`, `--port ${free}`)]);
      await waitForOutput(emulator, 'controls:');
      const url = `http://127.0.0.1:${free}`;
      expect(emulator.output()).toContain(`listening on ${url}`);
      return { emulator, url, account: account.replaceAll(`http://127.0.0.1:${port}/`, `${url}/`) };
    },
    async createAccountAndPay(account) {
      expect(await runBlock(account)).toMatch(/payment_provider_token/);
      // A person pastes the next block some time later; the gateway learns of the new default in milliseconds.
      await t.gateway.admission.synced();
      const answer = JSON.parse(await runBlock(readmeBlock('/gateway/secure-payment'))) as { result: { successful: boolean; redirect_url: string }; transaction: { token: string } };
      expect(answer.result.successful, JSON.stringify(answer)).toBe(true);
      expect(answer.result.redirect_url.startsWith(`${t.gateway.baseUrl}/checkout/3ds/`)).toBe(true);
      return { token: answer.transaction.token, redirectUrl: answer.result.redirect_url };
    },
    async stopped(emulator, url) {
      await emulator.stop();
      // bash ends at once; the emulator under it closes its port as it handles the signal.
      await waitUntil(async () => !(await acceptsConnections(Number(new URL(url).port))), 10_000, `${url} closed`);
    },
    async paymentOf(token) {
      const db = t.gateway.services.db;
      const payment = await db.payment.findUniqueOrThrow({ where: { id: token } });
      const account = await db.paymentAccount.findUniqueOrThrow({ where: { id: payment.paymentAccountId! } });
      return { status: payment.status, amount: payment.amount, account: { name: account.name, provider: account.provider } };
    },
  };
}
