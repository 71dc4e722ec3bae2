// Live status for subscriptions: every gateway process LISTENs on the events channel, so a change
// committed by any process reaches subscribers connected to any other (PostgreSQL NOTIFY).
import { EventEmitter, on } from 'node:events';
import pg from 'pg';
import { EVENTS_CHANNEL, type EventSignal } from '../domain/events.ts';
import { logConnectionLoss, type Logger } from '../logger.ts';

export interface LiveEvents {
  /** Signals matching `accept`, until the consumer stops iterating. */
  stream(accept: (signal: EventSignal) => boolean): AsyncIterableIterator<EventSignal>;
  stop(): Promise<void>;
}

export async function startLiveEvents(databaseUrl: string, logger: Logger): Promise<LiveEvents> {
  const emitter = new EventEmitter().setMaxListeners(0);
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: databaseUrl });
    c.on('notification', (msg) => {
      if (msg.channel !== EVENTS_CHANNEL || !msg.payload) return;
      try {
        emitter.emit('signal', JSON.parse(msg.payload) as EventSignal);
      } catch {
        logger.warn('unreadable event notification');
      }
    });
    c.on('error', (err) => {
      logConnectionLoss(logger, 'live events connection lost', err);
      client = null;
      c.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect().catch(() => {}), 1000);
    });
    await c.connect();
    await c.query(`LISTEN ${EVENTS_CHANNEL}`);
    client = c;
  };
  await connect();

  return {
    stream(accept) {
      const abort = new AbortController();
      const source = on(emitter, 'signal', { signal: abort.signal }) as AsyncIterableIterator<[EventSignal]>;
      const iterator: AsyncIterableIterator<EventSignal> = {
        async next() {
          for (;;) {
            const step = await source.next().catch((err: Error) => {
              if (err.name === 'AbortError') return { done: true as const, value: undefined };
              throw err;
            });
            if (step.done) return { done: true, value: undefined };
            if (accept(step.value[0])) return { done: false, value: step.value[0] };
          }
        },
        async return() {
          abort.abort();
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return iterator;
        },
      };
      return iterator;
    },
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      emitter.removeAllListeners();
      await client?.end().catch(() => {});
    },
  };
}
