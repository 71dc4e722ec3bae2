// Live status for subscriptions: every gateway process LISTENs on the events channel
// (db/notifications.ts), so a change committed by any process reaches subscribers connected to
// any other (PostgreSQL NOTIFY). Ended sessions of people reach them the same way (SESSIONS_CHANNEL).
import { EventEmitter, on } from 'node:events';
import { EVENTS_CHANNEL, type EventSignal } from '../domain/events.ts';
import type { Notifications } from '../db/notifications.ts';
import { SESSIONS_CHANNEL } from '../domain/people/sessions.ts';
import type { Logger } from '../logger.ts';

export interface LiveEvents {
  /** Signals matching `accept`, until the consumer stops iterating. */
  stream(accept: (signal: EventSignal) => boolean): AsyncIterableIterator<EventSignal>;
  /** Calls `handler` with the ids of people's sessions that just ended (in any process). */
  onSessionsEnded(handler: (sessionIds: string[]) => void): void;
  stop(): Promise<void>;
}

/** Live events over the process's LISTEN connection, which follows EVENTS_CHANNEL. */
export function liveEvents(notifications: Notifications, logger: Logger): LiveEvents {
  const emitter = new EventEmitter().setMaxListeners(0);
  notifications.on(EVENTS_CHANNEL, (payload) => {
    // Every payment's event arrives here; with no subscriber in this process it is not read.
    if (!payload || emitter.listenerCount('signal') === 0) return;
    try {
      emitter.emit('signal', JSON.parse(payload) as EventSignal);
    } catch {
      logger.warn('unreadable event notification');
    }
  });

  notifications.on(SESSIONS_CHANNEL, (payload) => {
    try {
      const ids = JSON.parse(payload) as unknown;
      if (Array.isArray(ids)) emitter.emit('sessions-ended', ids.filter((id): id is string => typeof id === 'string'));
    } catch {
      logger.warn('unreadable session notification');
    }
  });

  return {
    onSessionsEnded(handler) {
      emitter.on('sessions-ended', handler);
    },
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
      emitter.removeAllListeners();
    },
  };
}
