// Payment rows written straight with SQL, for figures that need exact times (the overview's day
// boundaries) or many rows (the export's 100,000, the benchmark's million). Only the columns a
// payment cannot lack; card fields as the gateway stores them (first digits and last four only).
import pg from 'pg';

export interface SeedPayment {
  createdAt: Date | string;
  amount: bigint;
  currency?: 'TRY' | 'USD' | 'EUR' | 'GBP';
  status?: 'started' | 'successful' | 'failed' | 'expired' | 'unresolved';
  errorCode?: string | null;
  channelReference?: string | null;
  /** Succeeded refunds of this payment: amount and time. */
  refunds?: { amount: bigint; at: Date | string }[];
}

/** Inserts the payments (and their refunds) in one statement each; their ids in order. */
export async function insertPayments(url: string, workspaceId: string, rows: SeedPayment[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ids: string[] = [];
    for (const r of rows) {
      const created = new Date(r.createdAt).toISOString();
      const res = await client.query<{ id: string }>(
        `INSERT INTO "Payment" (id, "workspaceId", source, "securityType", status, "paymentStatus", amount, "baseAmount", currency, "isTest",
                                "errorCode", "channelReference", "cardFirstDigits", "cardLastFourDigits", "createdAt", "updatedAt")
         VALUES (gen_random_uuid(), $1, 'api', 'non_secure', $2::"PaymentStatus", CASE WHEN $2 = 'successful' THEN 'paid'::"PaymentMoneyStatus" END,
                 $3, $3, $4::"Currency", true, $5, $6, '41111111', '1111', ($7::timestamptz AT TIME ZONE 'UTC'), ($7::timestamptz AT TIME ZONE 'UTC'))
         RETURNING id`,
        [workspaceId, r.status ?? 'successful', r.amount.toString(), r.currency ?? 'TRY', r.errorCode ?? null, r.channelReference ?? null, created],
      );
      const id = res.rows[0]!.id;
      ids.push(id);
      for (const refund of r.refunds ?? []) {
        await client.query(
          `INSERT INTO "Refund" (id, "paymentId", type, status, amount, "createdAt")
           VALUES (gen_random_uuid(), $1, 'refund', 'succeeded', $2, ($3::timestamptz AT TIME ZONE 'UTC'))`,
          [id, refund.amount.toString(), new Date(refund.at).toISOString()],
        );
      }
    }
    return ids;
  } finally {
    await client.end();
  }
}

export interface BulkSeed {
  count: number;
  /** Rows are spread evenly over this many days before `end`. */
  days: number;
  end: Date;
}

/**
 * `count` payments in one statement (generate_series): 90 % successful in TRY, USD and EUR, the
 * rest failed or expired with a few decline codes, every 20th successful one partly refunded, and
 * channel references that need CSV quoting or would start a spreadsheet formula. Then ANALYZE.
 */
export async function seedManyPayments(url: string, workspaceId: string, o: BulkSeed): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const stepMs = (o.days * 86_400_000) / o.count;
    await client.query(
      `INSERT INTO "Payment" (id, "workspaceId", source, "securityType", status, "paymentStatus", amount, "baseAmount", currency, "isTest",
                              "errorCode", "channelReference", "cardFirstDigits", "cardLastFourDigits", "createdAt", "updatedAt")
       SELECT gen_random_uuid(), $1, 'api', 'non_secure', s.status::"PaymentStatus",
              CASE WHEN s.status = 'successful' THEN 'paid'::"PaymentMoneyStatus" END,
              1000 + (i % 997) * 100, 1000 + (i % 997) * 100, (ARRAY['TRY','TRY','USD','EUR'])[1 + i % 4]::"Currency", true,
              CASE WHEN s.status = 'failed' THEN (ARRAY['insufficient_funds','expired_card','do_not_honor'])[1 + i % 3] END,
              CASE i % 5 WHEN 0 THEN '=SUM(A1)' WHEN 1 THEN 'ref, "quoted"' ELSE 'REF-' || i END,
              '41111111', '1111', t, t
         FROM generate_series(1, $2::int) AS i,
              LATERAL (SELECT ($3::timestamptz AT TIME ZONE 'UTC') - (i * $4::float8) * interval '1 millisecond' AS t) AS tt,
              LATERAL (SELECT CASE WHEN i % 10 = 3 THEN 'failed' WHEN i % 20 = 7 THEN 'expired' ELSE 'successful' END AS status) AS s`,
      [workspaceId, o.count, o.end.toISOString(), stepMs],
    );
    await client.query(
      `INSERT INTO "Refund" (id, "paymentId", type, status, amount, "createdAt")
       SELECT gen_random_uuid(), p.id, 'refund', 'succeeded', 500, p."createdAt" + interval '1 hour'
         FROM "Payment" p
        WHERE p."workspaceId" = $1 AND p.status = 'successful' AND p.amount % 2000 = 1000 AND p."channelReference" LIKE 'REF-%2'`,
      [workspaceId],
    );
    await client.query('ANALYZE "Payment"');
    await client.query('ANALYZE "Refund"');
  } finally {
    await client.end();
  }
}
