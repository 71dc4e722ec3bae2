// The master key that encrypts API secrets at rest. The gateway and the admin CLI must agree on
// it, so both load it here: GATEWAY_MASTER_KEY, or one generated once into DATA_DIR.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import { generateMasterKey, parseMasterKey } from './domain/secrets.ts';

/** GATEWAY_MASTER_KEY, or one generated once into DATA_DIR (refused in production with DATABASE_URL). */
export function loadMasterKey(config: Config, logger: Logger): Buffer {
  if (config.GATEWAY_MASTER_KEY) return parseMasterKey(config.GATEWAY_MASTER_KEY);
  if (config.DATABASE_URL && config.NODE_ENV === 'production') {
    throw new Error('GATEWAY_MASTER_KEY must be set in production when DATABASE_URL is used');
  }
  const file = path.join(config.dataDir, 'master.key');
  if (!existsSync(file)) {
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
