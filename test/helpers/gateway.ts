// A real gateway per test file: its own database, HTTP server on 127.0.0.1, Agenda jobs, and a
// clock the test can move. `seedWorkspace` makes a merchant with a channel and a default account.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/gateway.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { createLogger } from '../../src/logger.ts';
import { ALL_FEATURES, createChannel, createPaymentAccount, createWorkspace, type AccountCapabilities, type PlanSettings } from '../../src/domain/workspaces.ts';
import type { Currency } from '../../src/domain/money.ts';
import { createTestDatabase, servingUrl } from './db.ts';
import { call, type CallOptions, type MerchantCredentials } from './client.ts';

export const TEST_MASTER_KEY = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

export interface TestGateway {
  gateway: Gateway;
  clock: ManualClock;
  /** Its database, as the owner (a test may change the schema); the gateway serves it as the serving role. */
  databaseUrl: string;
  /** Its DATA_DIR, a temporary folder of its own (the demo workspace's credentials file goes there). */
  dataDir: string;
  logLines: string[];
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Another gateway's database, for restarts and several processes on one database. */
  databaseUrl?: string;
  clock?: ManualClock;
  /** Settings on top of the test defaults, e.g. `{ WEBHOOK_TIMEOUT_MS: '500' }`. */
  env?: Record<string, string>;
  /** Sees every SQL statement the gateway's Prisma client sends (statement budgets). */
  onQuery?: (sql: string) => void;
  /** Creates the demo workspace and its credentials file, as `npm start` does on an empty database. */
  seedDemo?: boolean;
}

export async function startTestGateway(opts: StartOptions = {}): Promise<TestGateway> {
  const databaseUrl = opts.databaseUrl ?? (await createTestDatabase());
  const clock = opts.clock ?? new ManualClock();
  const logLines: string[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-test-data-'));
  const config = loadConfig({
    // Served as the serving role, as a started gateway is: the suite runs with its privileges.
    DATABASE_URL: servingUrl(databaseUrl),
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    GATEWAY_MASTER_KEY: TEST_MASTER_KEY,
    AGENDA_PROCESS_EVERY_MS: '200',
    WEBHOOK_POLL_INTERVAL_MS: '200',
    LOG_LEVEL: 'debug',
    // Tests send bursts far above a merchant's rate; test/payment-links/rate-limits.test.ts turns them on.
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_LINKS_PER_MINUTE: '0',
    ...opts.env,
  });
  const gateway = await startGateway(config, { clock, logger: createLogger('debug', (line) => logLines.push(line)), onQuery: opts.onQuery, seedDemo: opts.seedDemo });
  return { gateway, clock, databaseUrl, dataDir, logLines, stop: () => gateway.stop() };
}

export interface Merchant extends MerchantCredentials {
  workspaceId: string;
  channelToken: string;
  accountToken: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies loosely
  call<T = any>(operation: string, body: unknown, opts?: CallOptions): ReturnType<typeof call<T>>;
}

export interface SeedOptions {
  slug?: string;
  plan?: PlanSettings;
  defaultAccount?: boolean;
  currencies?: Currency[];
  capabilities?: AccountCapabilities;
  /**
   * The card-testing guard, on by default in the product; off here unless asked for, since most
   * tests send many cards from one address (as the request limits are off, startTestGateway).
   */
  riskGuard?: boolean;
}

export async function seedWorkspace(t: TestGateway, opts: SeedOptions = {}): Promise<Merchant> {
  const slug = opts.slug ?? `ws${Math.random().toString(36).slice(2, 10)}`;
  const db = t.gateway.services.db;
  const { workspace, credentials } = await createWorkspace(db, t.gateway.masterKey, { slug, plan: opts.plan ?? ALL_FEATURES });
  if (!opts.riskGuard) await db.workspace.update({ where: { id: workspace.id }, data: { riskGuard: false } });
  const channel = await createChannel(db, slug, 'Web');
  const account = await createPaymentAccount(db, slug, {
    name: 'Simulator',
    isDefault: opts.defaultAccount ?? true,
    currencies: opts.currencies,
    capabilities: opts.capabilities,
  });
  const creds: MerchantCredentials = { team: slug, apiKey: credentials.apiKey, apiSecret: credentials.apiSecret };
  // The seed's announcements (migration 0016) arrive after its commits; a call's admission read
  // before they do is not remembered, so a test counting statements would see one more.
  await t.gateway.admission.synced();
  return {
    ...creds,
    workspaceId: workspace.id,
    channelToken: channel.id,
    accountToken: account.id,
    call: (operation, body, callOpts) => call(t.gateway.baseUrl, creds, operation, body, callOpts),
  };
}
