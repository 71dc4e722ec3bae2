// The overview's live figures: it asks again when an event about a payment arrives (taken, failed,
// expired, refunded or cancelled, whatever started it: API, order, subscription, link), at most
// once every REFRESH_MS. A burst of events (a run of renewals, a busy minute) is one refetch at its
// start and one after it, never one per event: each refetch is the overview's SQL aggregates.
import { useEffect, useMemo, useRef } from 'react';
import { useSubscription } from 'urql';
import { graphql } from '../graphql.ts';

export const REFRESH_MS = 3000;

const PAYMENT_EVENTS = graphql(`
  subscription OverviewEvents {
    events { id kind transactionToken }
  }
`);

interface LiveEvent { id: string; kind: string; transactionToken: string | null }

/** A payment's own events (transaction.*) and its owners' events that name it (order.paid, payment_link.payment_refunded, …). */
export const concernsPayment = (e: LiveEvent): boolean => e.kind.startsWith('transaction.') || e.transactionToken !== null;

/** `run` at most once per `ms`: the first call runs at once, calls within the wait make one more run at its end. */
export function throttle(run: () => void, ms: number): { call: () => void; cancel: () => void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    run();
  };
  return {
    call() {
      if (timer !== undefined) return;
      const wait = last + ms - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** Calls `refetch` (the one of the latest render) on payment events, throttled; paused, it listens to nothing. */
export function usePaymentEventsRefresh(refetch: () => void, pause: boolean, ms = REFRESH_MS): void {
  const latest = useRef(refetch);
  latest.current = refetch;
  const throttled = useMemo(() => throttle(() => latest.current(), ms), [ms]);
  useEffect(() => throttled.cancel, [throttled]);
  useSubscription<{ events: LiveEvent }>({ query: PAYMENT_EVENTS, pause }, (_prev, data) => {
    if (concernsPayment(data.events)) throttled.call();
    return data;
  });
}
