// The process's LISTEN connection (src/db/notifications.ts) when the database's machine vanishes
// without closing it: the connection stays open and silent, and every notification is missed. An
// unanswered heartbeat gives it up, so the followers (remembered admissions and risk counts) are
// told and trust nothing meanwhile, and a new connection follows again once the network is back.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, servingUrl } from '../helpers/db.ts';
import { startPgProxy } from '../helpers/pg-proxy.ts';
import { startNotifications } from '../../src/db/notifications.ts';
import { createLogger } from '../../src/logger.ts';

describe('the notifications connection', () => {
  it('gone silent, is given up at an unanswered heartbeat, and a new one follows again after the silence', async () => {
    const url = servingUrl(await createTestDatabase());
    const proxy = await startPgProxy(url);
    const sender = new pg.Client({ connectionString: url });
    await sender.connect();
    const n = await startNotifications(proxy.url, ['heartbeat_test'], createLogger('silent'), { heartbeatMs: 200, heartbeatTimeoutMs: 400 });
    try {
      const got: string[] = [];
      n.on('heartbeat_test', (payload) => got.push(payload));
      let gaps = 0;
      n.onGap(() => gaps++);
      await sender.query(`SELECT pg_notify('heartbeat_test', 'before')`);
      await expect.poll(() => got).toEqual(['before']);

      proxy.silence(2_000);
      await expect.poll(() => n.connected, { timeout: 3_000 }).toBe(false);
      expect(gaps).toBe(1);
      await sender.query(`SELECT pg_notify('heartbeat_test', 'missed')`);

      await expect.poll(() => n.connected, { timeout: 10_000 }).toBe(true);
      expect(gaps).toBe(2); // told again when it is back: what was missed meanwhile is not known
      await sender.query(`SELECT pg_notify('heartbeat_test', 'after')`);
      await expect.poll(() => got).toEqual(['before', 'after']);
    } finally {
      await n.stop();
      await sender.end();
      await proxy.close();
    }
  }, 30_000);
});
