// One LISTEN connection per gateway process for every channel it follows (PostgreSQL NOTIFY):
// live events for GraphQL subscriptions (graphql/live.ts), admission changes
// (rest/admission-memory.ts) and the risk guard's (domain/risk/memory.ts). A lost connection is
// opened again a second later; while it is down notifications are missed, so followers are told
// (`onGap`) and must not trust what a notification would have corrected. A connection can also
// go silent without closing (the database's machine vanished): a heartbeat statement on it that
// goes unanswered counts as losing it.
import pg from 'pg';
import { logConnectionLoss, type Logger } from '../logger.ts';

/** How the connection shows in pg_stat_activity. */
export const NOTIFICATIONS_APPLICATION = 'gateway-notifications';

export interface Notifications {
  /** Calls `handler` with the payload of every notification on `channel` (LISTENed from start). */
  on(channel: string, handler: (payload: string) => void): void;
  /** Called when the connection is lost and again when it is back: notifications may have been missed. */
  onGap(handler: () => void): void;
  /** Whether the connection is up: a follower may trust that it misses nothing. */
  readonly connected: boolean;
  stop(): Promise<void>;
}

export interface NotificationsOptions {
  /** How often the connection is asked a statement, and how long it has to answer (ms). */
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
}

const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 3_000;

export async function startNotifications(databaseUrl: string, channels: readonly string[], logger: Logger, opts: NotificationsOptions = {}): Promise<Notifications> {
  const handlers = new Map<string, Array<(payload: string) => void>>(channels.map((c) => [c, []]));
  const gapHandlers: Array<() => void> = [];
  const gap = () => gapHandlers.forEach((h) => h());
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  const reconnect = () => {
    if (!stopped) retry = setTimeout(() => void connect().catch(reconnect), 1000);
  };
  // A statement or a connection attempt left unanswered this long fails (a silent peer).
  const timeoutMs = opts.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const lost = (c: pg.Client, err: Error) => {
    if (client !== c) return; // still connecting (connect() fails and its caller retries), or already lost
    logConnectionLoss(logger, 'notifications connection lost', err);
    client = null;
    gap();
    c.end().catch(() => {});
    reconnect();
  };
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: NOTIFICATIONS_APPLICATION, keepAlive: true, query_timeout: timeoutMs, connectionTimeoutMillis: timeoutMs });
    c.on('notification', (msg) => handlers.get(msg.channel)?.forEach((h) => h(msg.payload ?? '')));
    c.on('error', (err) => lost(c, err));
    try {
      await c.connect();
      for (const channel of channels) await c.query(`LISTEN ${channel}`);
    } catch (err) {
      c.end().catch(() => {});
      throw err;
    }
    client = c;
    gap();
  };
  await connect();
  // An unanswered heartbeat: the connection is given up (a silent one would miss every notification).
  const heartbeat = setInterval(() => {
    const c = client;
    c?.query('SELECT 1').catch((err: Error) => lost(c, err));
  }, opts.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();

  return {
    on(channel, handler) {
      const list = handlers.get(channel);
      if (!list) throw new Error(`not listening on ${channel}`);
      list.push(handler);
    },
    onGap: (handler) => void gapHandlers.push(handler),
    get connected() {
      return client !== null;
    },
    async stop() {
      stopped = true;
      clearInterval(heartbeat);
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
