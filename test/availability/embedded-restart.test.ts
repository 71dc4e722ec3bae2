// The embedded PostgreSQL dies under its owner (SIGKILL to the postmaster, as the OOM killer
// does): the owner starts it again on the same port and data, with bounded attempts, each a JSON
// log line, and a client's next connection works. A server that keeps dying is given up on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.ts';
import { isAlive, postmasterPid, serverProcesses, waitUntil } from '../helpers/gateway-process.ts';
import { freePort } from '../helpers/ports.ts';

const dirs: string[] = [];
const servers: EmbeddedDatabase[] = [];

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => {});
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function start(restart?: { maxDeaths: number }, onGiveUp?: () => void) {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-pg-restart-'));
  dirs.push(dir);
  const lines: Array<{ msg: string } & Record<string, unknown>> = [];
  const db = await startEmbeddedPostgres({ dir, port: await freePort(), log: (msg, fields) => lines.push({ msg, ...fields }), restart: { firstDelayMs: 100, ...restart }, onGiveUp });
  servers.push(db);
  return { db, lines, pgData: path.join(dir, 'data') };
}

async function select1(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>('SELECT 1 AS n')).rows[0]!.n;
  } finally {
    await client.end();
  }
}

function killPostmaster(pgData: string): number {
  const pid = postmasterPid(pgData)!;
  process.kill(pid, 'SIGKILL');
  return pid;
}

describe('the embedded PostgreSQL dies while in use', () => {
  it('is started again on the same port and data, and each step is logged', async () => {
    const { db, lines, pgData } = await start();
    expect(await select1(db.url)).toBe(1);
    const killed = killPostmaster(pgData);
    await waitUntil(() => lines.some((l) => l.msg === 'embedded PostgreSQL started again'), 30_000, 'restarted');
    expect(lines[0]).toMatchObject({ msg: 'embedded PostgreSQL exited unexpectedly; starting it again', pid: killed, signal: 'SIGKILL', attempt: 1, of: 5 });
    expect(postmasterPid(pgData)).not.toBe(killed);
    expect(isAlive(postmasterPid(pgData)!)).toBe(true);
    expect(await select1(db.url)).toBe(1);

    // A stop is not a death: nothing is started again afterwards.
    await db.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(serverProcesses(pgData)).toEqual([]);
    expect(lines.filter((l) => l.msg === 'embedded PostgreSQL started again')).toHaveLength(1);
  }, 60_000);

  it('one that keeps dying is given up on after the allowed deaths', async () => {
    let gaveUp = false;
    const { lines, pgData } = await start({ maxDeaths: 1 }, () => (gaveUp = true));
    killPostmaster(pgData);
    await waitUntil(() => lines.some((l) => l.msg === 'embedded PostgreSQL started again'), 30_000, 'restarted once');
    killPostmaster(pgData);
    await waitUntil(() => gaveUp, 30_000, 'given up');
    expect(lines.at(-1)).toMatchObject({ msg: 'embedded PostgreSQL keeps dying; not starting it again', deaths: 2 });
    await waitUntil(() => serverProcesses(pgData).length === 0, 10_000, 'server gone');
  }, 60_000);
});
