// The demo workspace's default account pointed at the bank phase's iyzico emulator: a new iyzico
// account row (credentials encrypted under the gateway's master key, as the gateway stores them;
// settings with the emulator's address) made the default, and undone after the phase. Written
// with bare SQL on the gateway's database: the gateway reads its accounts and default with each
// call (a trigger bumps the workspace's settings version on any account write), so no restart.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { encryptSecret } from '../../src/domain/secrets.ts';

export interface IyzicoAccount {
  accountId: string;
  /** Makes the previous default the default again and retires the iyzico account. */
  restore(): Promise<void>;
}

export async function useIyzicoAccount(
  databaseUrl: string,
  masterKey: Buffer,
  workspaceSlug: string,
  bank: { url: string; apiKey: string; secretKey: string },
): Promise<IyzicoAccount> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const accountId = randomUUID();
    const credentials = encryptSecret(masterKey, JSON.stringify({ api_key: bank.apiKey, secret_key: bank.secretKey }));
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string; previous: string | null }>(`SELECT id, "defaultPaymentAccountId" AS previous FROM "Workspace" WHERE slug = $1 FOR UPDATE`, [workspaceSlug]);
    const workspace = rows[0];
    if (!workspace) throw new Error(`no workspace "${workspaceSlug}"`);
    await client.query(
      `INSERT INTO "PaymentAccount" (id, "workspaceId", name, provider, mode, currencies, "installmentRatesBp", credentials, settings)
       SELECT $1, w.id, 'iyzico (benchmark emulator)', 'iyzico', w.mode, ARRAY['TRY']::"Currency"[], '{}', $2, $3::jsonb FROM "Workspace" w WHERE w.id = $4`,
      [accountId, credentials, JSON.stringify({ base_url: bank.url }), workspace.id],
    );
    await client.query(`UPDATE "Workspace" SET "defaultPaymentAccountId" = $1 WHERE id = $2`, [accountId, workspace.id]);
    await client.query('COMMIT');
    return {
      accountId,
      restore: async () => {
        const again = new pg.Client({ connectionString: databaseUrl });
        await again.connect();
        try {
          await again.query('BEGIN');
          await again.query(`UPDATE "Workspace" SET "defaultPaymentAccountId" = $1 WHERE id = $2`, [workspace.previous, workspace.id]);
          await again.query(`UPDATE "PaymentAccount" SET "deletedAt" = now() AT TIME ZONE 'UTC' WHERE id = $1`, [accountId]);
          await again.query('COMMIT');
        } finally {
          await again.end();
        }
      },
    };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}
