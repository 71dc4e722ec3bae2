// The bare-`pg` baseline: what the SQL of a payment costs without the gateway. A pool of as many
// connections as the gateway's (DB_POOL_SIZE, default 10) on the same embedded PostgreSQL and the
// same tables, driven by the same number of concurrent callers. A payment is one transaction of
// 3 statements (customer upsert, payment insert, outbox insert); a retrieve is one SELECT of the
// payment with its customer. An admission is the gateway's own first statement of every call
// (src/rest/admission.ts: the key's workspace and its request-limit windows), sent alone: all
// callers count against the one workspace's windows, so this is the most calls per second any
// single workspace can be admitted at, however fast the gateway around it.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { admissionSql } from '../../src/rest/admission.ts';
import { UNREACHED_LIMITS, type DemoCredentials } from './gateway-process.ts';

export interface BaselineIds {
  workspaceId: string;
  channelId: string;
  accountId: string;
  credentialId: string;
}

const UPSERT_CUSTOMER = `
  INSERT INTO "Customer" (id, "workspaceId", "channelId", "channelReference", firstname, lastname, email, "createdAt", "updatedAt")
  VALUES ($1, $2, $3, $4, $5, $6, $7, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
  ON CONFLICT ("channelId", "channelReference") DO UPDATE
    SET firstname = EXCLUDED.firstname, lastname = EXCLUDED.lastname, email = EXCLUDED.email, "updatedAt" = EXCLUDED."updatedAt"
  RETURNING id`;

const INSERT_PAYMENT = `
  INSERT INTO "Payment" (id, "workspaceId", "channelId", "customerId", "paymentAccountId", source, "securityType", status,
    "paymentStatus", "channelReference", amount, "baseAmount", currency, "installmentNumber", "isTest", ip, "callbackUrl",
    "cardHolderName", "cardFirstDigits", "cardLastFourDigits", "cardScheme", "cardExpiryMonth", "cardExpiryYear",
    "providerReference", "completedAt", "createdAt", "updatedAt")
  VALUES ($1, $2, $3, $4, $5, 'api', 'non_secure', 'successful', 'paid', $6, 10000, 10000, 'TRY', 1, true, '203.0.113.7',
    'http://127.0.0.1:9/callback', 'AYSE YILMAZ', '41111111', '1111', 'visa', '12', '2030', $7,
    now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`;

const INSERT_OUTBOX = `
  INSERT INTO "OutboxEvent" (id, "workspaceId", kind, "recordType", "recordToken", "transactionToken", "createdAt", "processedAt")
  VALUES ($1, $2, 'transaction.successful', 'transaction', $3, $3, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`;

const SELECT_PAYMENT = `
  SELECT p.*, c."channelReference" AS "customerReference"
  FROM "Payment" p LEFT JOIN "Customer" c ON c.id = p."customerId"
  WHERE p.id = $1 AND p."workspaceId" = $2`;

export class Baseline {
  readonly tokens: string[] = [];

  private constructor(
    private readonly pool: pg.Pool,
    private readonly ids: BaselineIds,
  ) {}

  static async open(databaseUrl: string, poolSize: number, demo: DemoCredentials): Promise<Baseline> {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
    pool.on('error', () => {});
    const { rows } = await pool.query<{ id: string; credential: string }>(
      `SELECT w.id, c.id AS credential FROM "Workspace" w JOIN "ApiCredential" c ON c."workspaceId" = w.id AND c."revokedAt" IS NULL WHERE w.slug = $1`,
      [demo.team],
    );
    if (!rows[0]) throw new Error(`no workspace "${demo.team}" with a live key`);
    return new Baseline(pool, { workspaceId: rows[0].id, channelId: demo.channel_token, accountId: demo.payment_provider_token, credentialId: rows[0].credential });
  }

  /** `customerRef`: the same spread of customers the gateway phase uses. Returns the payment's id. */
  async payment(customerRef: string): Promise<string> {
    const { workspaceId, channelId, accountId } = this.ids;
    const client = await this.pool.connect();
    let failed = false;
    try {
      await client.query('BEGIN');
      const customer = await client.query<{ id: string }>(UPSERT_CUSTOMER, [randomUUID(), workspaceId, channelId, customerRef, 'Ayşe', 'Yılmaz', 'ayse@example.com']);
      const paymentId = randomUUID();
      await client.query(INSERT_PAYMENT, [paymentId, workspaceId, channelId, customer.rows[0]!.id, accountId, 'BASELINE', randomUUID()]);
      await client.query(INSERT_OUTBOX, [randomUUID(), workspaceId, paymentId]);
      await client.query('COMMIT');
      this.tokens.push(paymentId);
      return paymentId;
    } catch (err) {
      failed = true;
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release(failed);
    }
  }

  async retrieve(token: string): Promise<Record<string, unknown>> {
    const { rows } = await this.pool.query<Record<string, unknown>>(SELECT_PAYMENT, [token, this.ids.workspaceId]);
    if (rows.length !== 1) throw new Error(`payment ${token} not found`);
    return rows[0]!;
  }

  /** The gateway's admission statement for a regular-payment of the demo workspace. */
  async admission(): Promise<void> {
    const sql = admissionSql(this.ids.credentialId, 'regular-payment', UNREACHED_LIMITS, Date.now());
    const { rows } = await this.pool.query<{ refusedUntil: string | null }>(sql.text, sql.values);
    if (rows.length !== 1 || rows[0]!.refusedUntil !== null) throw new Error('the demo key was not admitted');
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}
