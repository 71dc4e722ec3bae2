// The master key that encrypts API secrets at rest. The gateway and the admin CLI must agree on
// it, so both load it here: GATEWAY_MASTER_KEY, or one generated once into DATA_DIR. The database
// records which key its secrets are written with (MasterKeyCheck), and both compare theirs with it
// before they serve or write anything: a process with another key would write secrets nobody can
// read, or fail every call whose secret it cannot decrypt.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Logger } from './logger.ts';
import { decryptSecret, generateMasterKey, masterKeyDigest, parseMasterKey } from './domain/secrets.ts';

const WRONG_KEY =
  'the master key (GATEWAY_MASTER_KEY, else DATA_DIR/master.key) is not the one the secrets in this database are encrypted with: ' +
  'set GATEWAY_MASTER_KEY to the key of the first gateway or CLI that ran on this database';

/**
 * GATEWAY_MASTER_KEY, or one generated once into DATA_DIR (a production start has the first:
 * config.ts assertStartable). `generate: false`: the database already has a key, so a new one would be wrong.
 */
export function loadMasterKey(config: Config, logger: Logger, opts: { generate?: boolean } = {}): Buffer {
  if (config.GATEWAY_MASTER_KEY) return parseMasterKey(config.GATEWAY_MASTER_KEY);
  const file = path.join(config.dataDir, 'master.key');
  if (!existsSync(file)) {
    if (opts.generate === false) throw new Error(`the secrets in this database are encrypted with a master key this process does not have: set GATEWAY_MASTER_KEY to it`);
    mkdirSync(config.dataDir, { recursive: true });
    try {
      writeFileSync(file, generateMasterKey() + '\n', { mode: 0o600, flag: 'wx' });
      if (config.DATABASE_URL) logger.warn('GATEWAY_MASTER_KEY is not set; generated one into DATA_DIR', { file });
    } catch (err) {
      // Another process (gateway or CLI) created it first; use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return parseMasterKey(readFileSync(file, 'utf8').trim());
}

/**
 * The master key of this process, checked against the database's record of its key: the same key,
 * or a refusal naming the fix. A database without a record (new, or from before the record
 * existed) records this key, if it decrypts at least half of the secrets already stored; the ones
 * it does not decrypt are named in a warning (they answer 503 until replaced).
 */
export async function openMasterKey(config: Config, db: Db, logger: Logger): Promise<Buffer> {
  const recorded = await db.masterKeyCheck.findUnique({ where: { id: 1 } });
  const masterKey = loadMasterKey(config, logger, { generate: recorded === null });
  if (recorded) {
    if (recorded.digest !== masterKeyDigest(masterKey)) throw new Error(WRONG_KEY);
    return masterKey;
  }
  await adoptMasterKey(db, masterKey, logger);
  return masterKey;
}

async function adoptMasterKey(db: Db, masterKey: Buffer, logger: Logger): Promise<void> {
  const stored = await storedSecrets(db);
  const unreadable = stored.filter((s) => !decrypts(masterKey, s.value));
  if (unreadable.length * 2 > stored.length) {
    throw new Error(`${WRONG_KEY} (it decrypts ${stored.length - unreadable.length} of the ${stored.length} secrets stored)`);
  }
  // Two processes starting on a new database at once: the first record stands, the other compares.
  await db.masterKeyCheck.createMany({ data: [{ id: 1, digest: masterKeyDigest(masterKey) }], skipDuplicates: true });
  const recorded = await db.masterKeyCheck.findUniqueOrThrow({ where: { id: 1 } });
  if (recorded.digest !== masterKeyDigest(masterKey)) throw new Error(WRONG_KEY);
  if (unreadable.length > 0) {
    logger.warn('stored secrets not encrypted with the master key; their calls answer 503 until they are replaced', {
      secrets: unreadable.map((s) => s.subject),
      fix: 'npm run gateway -- workspace rotate-key <team> (API key), account update <team> <token> --credential … (payment account)',
    });
  }
}

interface StoredSecret {
  subject: string;
  value: string;
}

/** Every secret the database holds encrypted: API credentials' secrets and payment accounts' credentials. */
async function storedSecrets(db: Db): Promise<StoredSecret[]> {
  const [credentials, accounts] = await Promise.all([
    db.apiCredential.findMany({ select: { id: true, secretEncrypted: true, workspace: { select: { slug: true } } } }),
    db.paymentAccount.findMany({ where: { credentials: { not: null } }, select: { id: true, credentials: true, workspace: { select: { slug: true } } } }),
  ]);
  return [
    ...credentials.map((c) => ({ subject: `API credential ${c.id} of ${c.workspace.slug}`, value: c.secretEncrypted })),
    ...accounts.map((a) => ({ subject: `payment account ${a.id} of ${a.workspace.slug}`, value: a.credentials! })),
  ];
}

function decrypts(masterKey: Buffer, value: string): boolean {
  try {
    decryptSecret(masterKey, value);
    return true;
  } catch {
    return false;
  }
}
