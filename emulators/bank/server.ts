// What every bank emulator's HTTP server does alike (EST, Garanti BBVA, Yapı Kredi PosNet...): it
// reads a bounded body, waits the bank's latency, applies the next control rule (decline, fail,
// timeout, slow: ../iyzico/behaviour.ts) and hands the request to the bank's own route; it serves
// the ACS pages under /_emulator/acs/<id>[/complete] and the controls under /_emulator/* (state,
// reset, behaviour). A bank brings its routes (gate, XML or JSON API: each gets the body and the
// request's headers), its ACS, its books (state) and its error pages; emulators/README.md says what
// each one speaks.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Behaviour, type Latency } from '../iyzico/behaviour.ts';
import { listenOn } from '../listen.ts';

/** A page or document to send, or a redirect (303) to follow. */
export type BankAnswer = { status: number; type: string; body: string } | { redirect: string };

/** What the server knows of a request beside its body. */
export interface BankCall {
  /** A `decline` rule was taken for it: the issuer declines whatever the card. */
  forceDecline: boolean;
  /** The request's headers (a bank that signs a body in a header reads it here). */
  headers?: IncomingHttpHeaders;
}

export interface BankRoute {
  /** The path it answers a POST on. */
  path: string;
  /** Whether this request can charge a card (only those take a `decline` rule). */
  charges(raw: string): boolean;
  answer(raw: string, call: BankCall): BankAnswer;
  /** What a `fail` rule answers on this route (an HTTP 500 of the bank's). */
  failure: BankAnswer;
}

export interface BankBooks {
  snapshot(): unknown;
  reset(): void;
}

export interface BankParts {
  /** For the log: "EST emulator". */
  name: string;
  routes: readonly BankRoute[];
  books: BankBooks;
  /** The ACS page of a challenge (GET), or its answer (POST .../complete); null when it does not know the id. */
  acs(id: string, step: 'page' | 'complete', method: string, raw: string): BankAnswer | null;
  unknownAcs: BankAnswer;
  notFound(route: string): BankAnswer;
  crashed: BankAnswer;
  tooLarge: BankAnswer;
}

export interface BankServerOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Every gate and API answer waits a uniformly random [minMs, maxMs] first. */
  latency?: Latency;
}

export interface BankServer {
  url: string;
  behaviour: Behaviour;
  stop(): Promise<void>;
}

const MAX_BODY = 1_000_000;

/** Starts the server; `build` gets the base URL (known once it listens) and the behaviour. */
export async function startBankServer(options: BankServerOptions, build: (baseUrl: () => string, behaviour: Behaviour) => BankParts): Promise<BankServer> {
  const behaviour = new Behaviour(options.latency);
  let baseUrl = '';
  const parts = build(() => baseUrl, behaviour);

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(`${parts.name}: unexpected error`, error);
      if (!res.headersSent) reply(res, parts.crashed);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', baseUrl);
    const raw = await readBody(req);
    if (raw === null) return reply(res, parts.tooLarge);
    const method = req.method ?? 'GET';
    if (url.pathname.startsWith('/_emulator/')) return controls(method, url, raw, res);
    const route = method === 'POST' ? parts.routes.find((r) => r.path === url.pathname) : undefined;
    if (route === undefined) return reply(res, parts.notFound(`${method} ${url.pathname}`));
    await behaviour.wait();
    const rule = behaviour.take(route.charges(raw));
    if (rule?.mode === 'timeout') return; // never answered; stop() destroys the socket
    if (rule?.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, rule.delayMs));
    if (rule?.mode === 'fail') return reply(res, route.failure);
    reply(res, route.answer(raw, { forceDecline: rule?.mode === 'decline', headers: req.headers }));
  }

  function controls(method: string, url: URL, raw: string, res: ServerResponse): void {
    const acs = /^\/_emulator\/acs\/([\w-]+)(\/complete)?$/.exec(url.pathname);
    if (acs) return reply(res, parts.acs(acs[1]!, acs[2] ? 'complete' : 'page', method, raw) ?? parts.unknownAcs);
    const key = `${method} ${url.pathname}`;
    if (key === 'GET /_emulator/state') return json(res, 200, { ...(parts.books.snapshot() as object), behaviour: behaviour.list() });
    if (key === 'POST /_emulator/reset') {
      parts.books.reset();
      behaviour.clear();
      return json(res, 200, { ok: true });
    }
    if (key === 'POST /_emulator/behaviour') {
      try {
        return json(res, 200, { rule: behaviour.set(parseObject(raw)) });
      } catch (error) {
        return json(res, 400, { error: (error as Error).message });
      }
    }
    if (key === 'DELETE /_emulator/behaviour') {
      behaviour.clear();
      return json(res, 200, { ok: true });
    }
    json(res, 404, { error: `no emulator route ${key}` });
  }

  const listening = await listenOn(server, options);
  baseUrl = listening.url;
  return { url: baseUrl, behaviour, stop: () => listening.close() };
}

/** The body as text; null past MAX_BODY. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseObject(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw === '' ? '{}' : raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function reply(res: ServerResponse, answer: BankAnswer): void {
  if ('redirect' in answer) {
    res.writeHead(303, { location: answer.redirect, 'content-length': 0 });
    return void res.end();
  }
  res.writeHead(answer.status, { 'content-type': answer.type, 'content-length': Buffer.byteLength(answer.body) });
  res.end(answer.body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  reply(res, { status, type: 'application/json; charset=utf-8', body: JSON.stringify(body) });
}

/** An HTML page answer. */
export const html = (status: number, body: string): BankAnswer => ({ status, type: 'text/html; charset=utf-8', body });

/** A plain-text answer. */
export const plainText = (status: number, body: string): BankAnswer => ({ status, type: 'text/plain', body });

/** What most bank emulators answer off their routes, in plain text: no such route (404), a crash (500), a body too large (413). */
export const PLAIN_ERRORS: Pick<BankParts, 'notFound' | 'crashed' | 'tooLarge'> = {
  notFound: (route) => plainText(404, `no route ${route}`),
  crashed: plainText(500, 'internal error'),
  tooLarge: plainText(413, 'request body too large'),
};

/** The ACS of a bank whose challenge is only answered (POST .../complete with Approve or Decline): `complete` gives the page posting the result, or null. */
export function decisionAcs(complete: (id: string, decision: string) => string | null): BankParts['acs'] {
  return (id, step, method, raw) => {
    if (step !== 'complete' || method !== 'POST') return null;
    const page = complete(id, new URLSearchParams(raw).get('decision') ?? '');
    return page === null ? null : html(200, page);
  };
}
