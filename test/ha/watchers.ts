// What the failover test watches besides the answers: the live updates a dashboard gets (a
// graphql-ws subscription kept by one client across the failovers), the webhooks a merchant's
// server gets (a real receiver), and the job runs the gateways announce.
import { createClient, type Client } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';

export interface Seen {
  kind: string;
  recordToken: string | null;
  transactionToken: string | null;
  at: number;
}

const RETRY_WAIT_MS = 500;
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A dashboard's live events on one gateway: the same graphql-ws client throughout, never created again. */
export class LiveWatcher {
  readonly seen: Seen[] = [];
  /** Times the client's socket was opened and acknowledged (1: it never had to reconnect). */
  connects = 0;
  /** Times the subscription ended with an error and the client subscribed again on the same socket. */
  resubscribed = 0;
  private readonly client: Client;
  private stopped = false;

  constructor(gatewayUrl: string, token: string) {
    this.client = createClient({
      url: `${gatewayUrl.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${token}` },
      lazy: false,
      // As a dashboard keeps it: reconnecting by itself for as long as it takes.
      retryAttempts: Number.POSITIVE_INFINITY,
      shouldRetry: () => true,
      retryWait: () => pause(RETRY_WAIT_MS),
      on: { connected: () => void this.connects++ },
    });
    this.subscribe();
  }

  private subscribe(): void {
    this.client.subscribe<{ events: Omit<Seen, 'at'> | null }>(
      { query: 'subscription { events { kind recordToken transactionToken } }' },
      {
        next: (value) => {
          if (value.data?.events) this.seen.push({ ...value.data.events, at: Date.now() });
        },
        error: () => {
          if (this.stopped) return;
          this.resubscribed++;
          void pause(RETRY_WAIT_MS).then(() => this.subscribe());
        },
        complete: () => {},
      },
    );
  }

  /** Whether an event about one of `tokens` arrived. */
  sawAny(tokens: Set<string>): boolean {
    return this.seen.some((e) => (e.recordToken && tokens.has(e.recordToken)) || (e.transactionToken && tokens.has(e.transactionToken)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client.dispose();
  }
}

/** Agenda announces each run's start on this channel (NOTIFY), whichever process runs it. */
const JOB_STATE_CHANNEL = 'agenda:jobs:state';

/** Counts the job starts the gateways announce, by job id, while it listens. */
export async function listenToJobStarts(url: string): Promise<{ starts: Map<string, number>; stop: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  const starts = new Map<string, number>();
  client.on('notification', (n) => {
    const event = JSON.parse(n.payload ?? '{}') as { type?: string; jobId?: string };
    if (event.type === 'start' && event.jobId) starts.set(String(event.jobId), (starts.get(String(event.jobId)) ?? 0) + 1);
  });
  await client.query(`LISTEN "${JOB_STATE_CHANNEL}"`);
  return { starts, stop: () => client.end() };
}
