// A TCP proxy in front of a test's PostgreSQL, to make what a failover does to a process's
// connections happen at a chosen moment: every connection cut and new ones refused for a while
// (HAProxy cutting the sessions of a dead primary), open connections gone silent (a peer that
// vanished from the network without closing anything), or a connection cut right after the server
// committed a write and before its answer reached the client (an in-doubt COMMIT).
import net from 'node:net';

export interface PgProxy {
  /** `url` with the proxy's address in place of the database's. */
  url: string;
  /** Cuts every open connection; new ones are refused for `refuseForMs`. */
  cut(refuseForMs: number): void;
  /**
   * Open connections, and those opened in the next `forMs`, stop passing anything in either
   * direction and stay open; connections opened after that work.
   */
  silence(forMs: number): void;
  /**
   * The next connection that sends an INSERT into `table` loses the answer that ends its
   * transaction (the statement's own, or its COMMIT's): the server has committed, and the
   * connection is cut instead of passing it on. Resolves once it happened.
   */
  cutAfterCommitOf(table: string): Promise<void>;
  /** As cutAfterCommitOf, for the next statement whose text matches `statement` (and whose answer contains `answer`, e.g. "UPDATE 1"). */
  cutAfterCommit(statement: RegExp, answer?: string): Promise<void>;
  close(): Promise<void>;
}

/** ReadyForQuery, outside a transaction: what the server sends once a write has committed. */
const READY_IDLE = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

interface Pair {
  client: net.Socket;
  server: net.Socket;
  silent: boolean;
  /** The SQL this connection sent, as text (only what a commit check needs). */
  sent: string;
}

export async function startPgProxy(url: string): Promise<PgProxy> {
  const target = new URL(url);
  const pairs = new Set<Pair>();
  let refuseUntil = 0;
  let silentUntil = 0;
  let commitWatch: { insert: RegExp; answer?: string; done: () => void } | null = null;

  const server = net.createServer((client) => {
    if (Date.now() < refuseUntil) return void client.destroy();
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
    const pair: Pair = { client, server: upstream, silent: Date.now() < silentUntil, sent: '' };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      if (pair.silent) return;
      if (commitWatch) pair.sent += chunk.toString('latin1');
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (pair.silent) return;
      const watch = commitWatch;
      if (watch && chunk.includes(READY_IDLE)) {
        if (watch.insert.test(pair.sent) && (!watch.answer || chunk.includes(watch.answer))) {
          commitWatch = null;
          end();
          watch.done();
          return;
        }
        // That exchange is over: only a later statement of this connection may match.
        pair.sent = '';
      }
      client.write(chunk);
    });
  });
  const cutAfterCommit = (statement: RegExp, answer?: string) =>
    new Promise<void>((resolve) => {
      for (const pair of pairs) pair.sent = '';
      commitWatch = { insert: statement, answer, done: resolve };
    });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as net.AddressInfo).port);

  return {
    url: proxied.toString(),
    cut(refuseForMs) {
      refuseUntil = Date.now() + refuseForMs;
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server.destroy();
      }
    },
    silence(forMs) {
      silentUntil = Date.now() + forMs;
      for (const pair of pairs) pair.silent = true;
    },
    cutAfterCommit,
    // Prisma's own statements name the schema; the gateway's raw ones do not.
    cutAfterCommitOf: (table) => cutAfterCommit(new RegExp(`INSERT INTO (?:"public"\\.)?"${table}"`)),
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
