// One master key per database: the database records which key its secrets are encrypted with
// (MasterKeyCheck), a CLI with another key refuses before it writes anything, a database from
// before the record takes the key that decrypts its secrets, and a stored secret that still does
// not decrypt (written before the record existed) answers 503, never 500, with a log line saying
// which secret and how to fix it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createDb, type Db } from '../../src/db/client.ts';
import { createLogger } from '../../src/logger.ts';
import { openMasterKey } from '../../src/master-key.ts';
import { createWorkspace } from '../../src/domain/workspaces.ts';
import { encryptSecret, generateMasterKey, masterKeyDigest, parseMasterKey } from '../../src/domain/secrets.ts';
import { message } from '../../src/domain/messages.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { attemptsRecorded, emitEvent, gql, notificationsOf } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { useGateway } from '../helpers/fixture.ts';
import { cliOn } from '../helpers/cli.ts';
import { call } from '../helpers/client.ts';
import { paymentBody } from '../helpers/payments.ts';
import { startTestGateway, TEST_MASTER_KEY } from '../helpers/gateway.ts';
import { createTestDatabase } from '../helpers/db.ts';

const gw = useGateway();
const { t } = gw;
const cli = cliOn(t);
const OTHER_KEY = generateMasterKey();

const workspaceCount = (slug: string) => t.gateway.services.db.workspace.count({ where: { slug } });

describe('another key than the database was written with', () => {
  it('records the gateway key at its first start', async () => {
    const row = await t.gateway.services.db.masterKeyCheck.findUniqueOrThrow({ where: { id: 1 } });
    expect(row.digest).toBe(masterKeyDigest(parseMasterKey(TEST_MASTER_KEY)));
  });

  it('GATEWAY_MASTER_KEY set to another key: refused in one line naming the fix, nothing written', async () => {
    const res = await cli.run(['workspace', 'create', 'shop3'], { GATEWAY_MASTER_KEY: OTHER_KEY });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^error: the master key \(GATEWAY_MASTER_KEY, else DATA_DIR\/master\.key\) is not the one the secrets in this database are encrypted with: set GATEWAY_MASTER_KEY to [^\n]+\n$/);
    expect(await workspaceCount('shop3')).toBe(0);
  });

  it('no GATEWAY_MASTER_KEY (an operator forgot it): refused, no key generated into DATA_DIR, nothing written', async () => {
    const res = await cli.run(['workspace', 'create', 'shop3'], { GATEWAY_MASTER_KEY: '', DATA_DIR: path.join(t.gateway.config.dataDir, 'cli-without-key') });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: the secrets in this database are encrypted with a master key this process does not have: set GATEWAY_MASTER_KEY to it\n$/);
    expect(existsSync(path.join(t.gateway.config.dataDir, 'cli-without-key', 'master.key'))).toBe(false);
    expect(await workspaceCount('shop3')).toBe(0);
  });

  it('a gateway started on the database with another key refuses before it listens', async () => {
    await expect(startTestGateway({ databaseUrl: t.databaseUrl, env: { GATEWAY_MASTER_KEY: OTHER_KEY } })).rejects.toThrow(
      /^the master key \(GATEWAY_MASTER_KEY, else DATA_DIR\/master\.key\) is not the one the secrets in this database are encrypted with/,
    );
  });

  it('the right key: the command runs', async () => {
    const res = await cli.run(['--json', 'workspace', 'create', 'shop3', '--bare']);
    expect(res.code, res.stderr).toBe(0);
    expect(await workspaceCount('shop3')).toBe(1);
  });
});

describe('a database from before the record (no MasterKeyCheck row)', () => {
  let url: string;
  let db: Db;
  const writer = parseMasterKey(generateMasterKey());
  const open = (key: string) => {
    const lines: string[] = [];
    const config = loadConfig({ DATABASE_URL: url, GATEWAY_MASTER_KEY: key, DATA_DIR: t.gateway.config.dataDir });
    return { lines, opened: openMasterKey(config, db, createLogger('warn', (line) => lines.push(line))) };
  };

  beforeAll(async () => {
    url = await createTestDatabase();
    db = createDb(url, { max: 2 });
    // Three workspaces written with one key, one with another (the CLI's generated key, before the record existed).
    for (const slug of ['old1', 'old2', 'old3']) await createWorkspace(db, writer, { slug });
    await createWorkspace(db, parseMasterKey(OTHER_KEY), { slug: 'stray' });
  });
  afterAll(() => db.$disconnect());

  it('a key that decrypts fewer than half of its secrets is refused, and nothing is recorded', async () => {
    await expect(open(OTHER_KEY).opened).rejects.toThrow(/is not the one the secrets in this database are encrypted with.*\(it decrypts 1 of the 4 secrets stored\)$/);
    expect(await db.masterKeyCheck.count()).toBe(0);
  });

  it('the key that wrote most of them is recorded; the secret it cannot decrypt is named in a warning', async () => {
    const { lines, opened } = open(writer.toString('hex'));
    await opened;
    expect((await db.masterKeyCheck.findUniqueOrThrow({ where: { id: 1 } })).digest).toBe(masterKeyDigest(writer));
    const stray = await db.apiCredential.findFirstOrThrow({ where: { workspace: { slug: 'stray' } } });
    const warning = lines.map((l) => JSON.parse(l) as { msg: string; secrets?: string[] }).find((l) => l.msg.startsWith('stored secrets not encrypted with the master key'));
    expect(warning?.secrets).toEqual([`API credential ${stray.id} of stray`]);
    // From now on the other key is refused by the record alone.
    await expect(open(OTHER_KEY).opened).rejects.toThrow(/is not the one the secrets in this database are encrypted with/);
  });
});

describe('a stored secret the gateway cannot decrypt', () => {
  const errorLines = () => t.logLines.filter((l) => l.includes('stored secret cannot be decrypted')).map((l) => JSON.parse(l) as Record<string, unknown>);

  it("an API credential's secret: 503 with Retry-After in the caller's language, and an operator's log line naming it", async () => {
    // Written with another key before the database recorded its own (the CLI bug this guards against).
    const { workspace, credentials } = await createWorkspace(t.gateway.services.db, parseMasterKey(OTHER_KEY), { slug: 'undecryptable' });
    const creds = { team: workspace.slug, apiKey: credentials.apiKey, apiSecret: credentials.apiSecret };
    const before = errorLines().length;
    const res = await call(t.gateway.baseUrl, creds, 'retrieve-payments', {}, { headers: { 'Accept-Language': 'en' } });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.body).toEqual({ result: { successful: false, message: message('service_unavailable', 'en') }, errors: {} });
    const credential = await t.gateway.services.db.apiCredential.findFirstOrThrow({ where: { workspaceId: workspace.id } });
    const logged = errorLines().slice(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'error', stored: `API credential ${credential.id}`, problem: 'wrong_key' });
    expect(logged[0]!.fix).toMatch(/GATEWAY_MASTER_KEY.*workspace rotate-key/);
  });

  it("a payment account's credentials: the payment answers 503 (Turkish by default), not 500, and the log names the account", async () => {
    const m = await gw.seed();
    await t.gateway.services.db.paymentAccount.update({ where: { id: m.accountToken }, data: { credentials: encryptSecret(parseMasterKey(OTHER_KEY), '{}') } });
    const before = errorLines().length;
    const res = await m.call('regular-payment', paymentBody(m));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.body.result).toEqual({ successful: false, message: message('service_unavailable', 'tr') });
    expect(errorLines().slice(before)).toEqual([expect.objectContaining({ stored: `payment account ${m.accountToken}`, operation: 'regular-payment' })]);
    expect(await t.gateway.services.db.payment.count({ where: { workspaceId: m.workspaceId } })).toBe(0);

    // The dashboard reading that account's credential hints: GraphQL's 503, not a masked 500.
    const token = await createAccessToken(t.gateway.services.db, m.team, 'dashboard');
    const before2 = errorLines().length;
    const res2 = await gql(t, token, '{ workspace { paymentAccounts { credentialHints { name } } } }');
    expect(res2.status).toBe(503);
    expect(res2.body.errors).toEqual([expect.objectContaining({ message: message('service_unavailable', 'en'), extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }) })]);
    expect(errorLines().slice(before2)).toEqual([expect.objectContaining({ operation: 'graphql', problem: 'wrong_key' })]);
  });
});

describe('a webhook whose API secret cannot be decrypted', () => {
  it('is a failed attempt that says why and is tried again later, not a delivery run that breaks', async () => {
    const { workspace } = await createWorkspace(t.gateway.services.db, parseMasterKey(OTHER_KEY), { slug: 'undecryptable-hooks' });
    const receiver = await gw.startReceiver();
    await addWebhookAddress(t.gateway.services, workspace, { url: `${receiver.url}/hooks`, allEvents: true });
    const { recordToken } = await emitEvent(t, workspace.id, 'transaction.successful');
    const [n] = await notificationsOf(t, { recordToken });
    t.clock.advance(30_000);
    const done = await attemptsRecorded(t, n!.id, 1);
    expect(done.attempts[0]).toMatchObject({ httpStatus: null, error: expect.stringMatching(/^API secret cannot be decrypted with this master key \(API credential [0-9a-f-]+\)/) });
    expect(done.status).toBe('pending');
    expect(receiver.requests).toHaveLength(0);
  });
});

