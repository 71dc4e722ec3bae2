// The gateway's connections lead to a node that is no longer the primary: after a failover the
// old primary comes back as a standby and refuses every write ("cannot execute ... in a read-only
// transaction", SQLSTATE 25006) until HAProxy sends new connections to the new primary. Here the
// test database is made read-only and the gateway's sessions are cut, so every new connection
// meets what a demoted node answers. A money-moving call then answers 503 with Retry-After
// ("nothing was done", try again), never 500; once writes are allowed again it answers 200.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { adminDatabaseUrl } from '../helpers/db.ts';
import { paymentBody } from '../helpers/payments.ts';

const { t, merchant: m } = useGateway({ merchant: true });

async function asAdmin(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Every session of the gateway's database ends, as a restarted node's do; the pools open new ones. */
const cutSessions = (name: string) => asAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);

describe('a database that refuses writes (a demoted primary)', () => {
  it('a payment answers 503 with Retry-After and writes nothing; once writes are allowed again, 200', async () => {
    const name = new URL(t.databaseUrl).pathname.slice(1);
    const pay = (reference: string) => m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: reference } }), { headers: { 'Accept-Language': 'en' } });
    expect((await pay('RO-0')).status).toBe(200);

    await asAdmin(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    try {
      await cutSessions(name);
      for (const reference of ['RO-1', 'RO-2']) {
        const refused = await pay(reference);
        expect(refused.status, refused.text).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('2');
      }
    } finally {
      await asAdmin(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
      await cutSessions(name);
    }
    const again = await pay('RO-3');
    expect(again.status, again.text).toBe(200);
    const references = (await t.gateway.services.db.payment.findMany({ select: { channelReference: true } })).map((p) => p.channelReference).sort();
    expect(references).toEqual(['RO-0', 'RO-3']);
  });
});
