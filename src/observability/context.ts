// The request (or job) under way, carried through async calls: its request id reaches every log
// line written for it, the jobs it schedules and the webhook events it records.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Logger } from './logger-shape.ts';

export interface RequestContext {
  /** Added to every log line written in this context. */
  fields: { request_id?: string; job?: string; [key: string]: unknown };
  /** The gateway's logger, for code that has none of its own (domain modules). */
  logger?: Logger;
  /** Filled in while the request runs, read by the access line and the metrics. */
  operation?: string;
  workspace?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const currentContext = (): RequestContext | undefined => storage.getStore();
export const currentRequestId = (): string | undefined => storage.getStore()?.fields.request_id;
export const runInContext = <T>(ctx: RequestContext, fn: () => T): T => storage.run(ctx, fn);

/** A caller's id is kept when it is short and plain (it is echoed in a header and in logs); else a new one. */
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID_RE.test(header) ? header : randomUUID();
}
