// What the CLI's account commands use of the domain: the same provider catalog the gateway
// builds (so credentials and settings are checked with each provider's own schema, and stored
// sealed with the master key), and domain errors printed with their field paths
// (`credentials.api_key: …`), one line, exit 1.
import { decryptSecret } from '../domain/secrets.ts';
import { DomainError } from '../domain/errors.ts';
import { message } from '../domain/messages.ts';
import type { AccountServices } from '../domain/settings.ts';
import { derivedKeys, providerCatalog } from '../providers/catalog.ts';
import { createRegistry } from '../providers/registry.ts';
import { withDatabase, type CliContext, type CliIo } from './context.ts';
import { CliError } from './parse.ts';

/** The database, the master key and the provider catalog; no connector is ever built from here. */
export function accountServices(ctx: CliContext): AccountServices {
  const deps = { now: () => new Date(), baseUrl: () => ctx.config.baseUrl, key: derivedKeys(ctx.masterKey), log: () => {} };
  return { db: ctx.db, masterKey: ctx.masterKey, providers: createRegistry(providerCatalog(deps), (stored, subject) => decryptSecret(ctx.masterKey, stored, subject)) };
}

/** Every issue as `path: Turkish / English`, so the operator knows which word to fix. */
export function issuesLine(err: DomainError): string {
  return err.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${message(i.code, 'tr', i.params)} / ${message(i.code, 'en', i.params)}`).join('; ');
}

/** Runs an action with the database open and the account services; domain errors become one CLI error line. */
export function accountAction<A extends unknown[]>(io: CliIo, run: (ctx: CliContext, s: AccountServices, ...args: A) => Promise<void>) {
  return withDatabase(io, async (ctx, ...args: A) => {
    try {
      await run(ctx, accountServices(ctx), ...args);
    } catch (err) {
      if (err instanceof DomainError) throw new CliError(issuesLine(err));
      throw err;
    }
  });
}
