// The Akbank virtual POS emulator: its 3-D gates and ACS (gate.ts), its JSON API (api.ts) and its
// books (state.ts). It runs its own small HTTP server rather than the shared bank server
// (../bank/server.ts) because Akbank signs each API body in a header (`auth-hash`) and the shared
// server hands a bank's route the body alone; everything else is done as there: a bounded body,
// the bank's latency, the next control rule (decline, fail, timeout, slow:
// ../iyzico/behaviour.ts), the ACS under /_emulator/acs/<id>[/complete] and the controls under
// /_emulator/* (state, reset, behaviour).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { errorPage } from '../bank/pages.ts';
import { Behaviour, type Latency } from '../iyzico/behaviour.ts';
import { listenOn } from '../listen.ts';
import { handleApi, isCharge } from './api.ts';
import { DEFAULT_AKBANK_TERMINAL, type AkbankTerminal } from './config.ts';
import { BANK, completeAcs, enterCard, openGate, type GateContext } from './gate.ts';
import { AkbankState } from './state.ts';

/** Akbank's paths (as under api.akbank.com and virtualpospaymentgateway.akbank.com). */
export const API_BASE_PATH = '/api/v1/payment/virtualpos';
export const API_PATH = `${API_BASE_PATH}/transaction/process`;
export const GATE_PATH = '/securepay';
export const HOST_GATE_PATH = '/payhosting';

export interface AkbankEmulatorOptions extends Partial<AkbankTerminal> {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Every gate and API answer waits a uniformly random [minMs, maxMs] first. */
  latency?: Latency;
  /** The bank's clock (expiry dates, transaction times); the real one by default. */
  now?: () => Date;
}

export interface AkbankEmulator extends AkbankTerminal {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** The API address an account's api_url names (the connector adds /transaction/process). */
  apiUrl: string;
  gateUrl: string;
  hostGateUrl: string;
  state: AkbankState;
  behaviour: Behaviour;
  stop(): Promise<void>;
}

const MAX_BODY = 1_000_000;
type Answer = { status: number; type: string; body: string };
const html = (status: number, body: string): Answer => ({ status, type: 'text/html; charset=utf-8', body });
const json = (status: number, body: unknown): Answer => ({ status, type: 'application/json; charset=utf-8', body: typeof body === 'string' ? body : JSON.stringify(body) });

/** Starts the Akbank emulator on host:port and resolves once it listens. */
export async function startAkbankEmulator(options: AkbankEmulatorOptions = {}): Promise<AkbankEmulator> {
  const terminal: AkbankTerminal = {
    merchantSafeId: options.merchantSafeId ?? DEFAULT_AKBANK_TERMINAL.merchantSafeId,
    terminalSafeId: options.terminalSafeId ?? DEFAULT_AKBANK_TERMINAL.terminalSafeId,
    secretKey: options.secretKey ?? DEFAULT_AKBANK_TERMINAL.secretKey,
  };
  const now = options.now ?? (() => new Date());
  const state = new AkbankState();
  const behaviour = new Behaviour(options.latency);
  let baseUrl = '';
  const gateContext = (forceDecline: boolean): GateContext => ({ state, terminal, now: now(), baseUrl, forceDecline });

  /** The bank's routes: the gates and the API; null for any other path. */
  async function route(req: IncomingMessage, path: string, raw: string): Promise<Answer | null> {
    const isApi = path === API_PATH;
    const gate = path === GATE_PATH ? 'securepay' : path === HOST_GATE_PATH ? 'payhosting' : null;
    if (req.method !== 'POST' || (!isApi && gate === null)) return null;
    await behaviour.wait();
    const rule = behaviour.take(isApi ? isCharge(raw) : true);
    if (rule?.mode === 'timeout') return new Promise<never>(() => undefined); // never answered; stop() destroys the socket
    if (rule?.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, rule.delayMs));
    if (rule?.mode === 'fail') return isApi ? { status: 500, type: 'text/plain', body: 'Internal Server Error' } : html(500, errorPage(BANK, 'Sistem hatası'));
    const forceDecline = rule?.mode === 'decline';
    if (isApi) {
      const answer = handleApi(raw, String(req.headers['auth-hash'] ?? ''), { state, terminal, now: now(), forceDecline });
      return json(answer.status, answer.body);
    }
    const page = openGate(new URLSearchParams(raw), gate!, gateContext(forceDecline));
    return html(page.status, page.html);
  }

  function controls(method: string, path: string, raw: string): Answer {
    const acs = /^\/_emulator\/acs\/([\w-]+)(\/complete)?$/.exec(path);
    if (acs && method === 'POST') {
      const form = new URLSearchParams(raw);
      const page = acs[2] ? completeAcs(acs[1]!, form.get('decision') ?? '', gateContext(false)) : (enterCard(acs[1]!, form, gateContext(false))?.html ?? null);
      return page === null ? html(404, errorPage(BANK, 'Bilinmeyen ya da yanıtlanmış 3-D Secure doğrulaması')) : html(200, page);
    }
    const key = `${method} ${path}`;
    if (key === 'GET /_emulator/state') return json(200, { ...(state.snapshot() as object), behaviour: behaviour.list() });
    if (key === 'POST /_emulator/reset') {
      state.reset();
      behaviour.clear();
      return json(200, { ok: true });
    }
    if (key === 'POST /_emulator/behaviour') {
      try {
        return json(200, { rule: behaviour.set(parseObject(raw)) });
      } catch (error) {
        return json(400, { error: (error as Error).message });
      }
    }
    if (key === 'DELETE /_emulator/behaviour') {
      behaviour.clear();
      return json(200, { ok: true });
    }
    return json(404, { error: `no emulator route ${key}` });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', baseUrl).pathname;
    const raw = await readBody(req);
    if (raw === null) return reply(res, { status: 413, type: 'text/plain', body: 'request body too large' });
    if (path.startsWith('/_emulator/')) return reply(res, controls(req.method ?? 'GET', path, raw));
    reply(res, (await route(req, path, raw)) ?? { status: 404, type: 'text/plain', body: `no route ${req.method} ${path}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('akbank-pos emulator: unexpected error', error);
      if (!res.headersSent) reply(res, { status: 500, type: 'text/plain', body: 'internal error' });
    });
  });
  const listening = await listenOn(server, options);
  baseUrl = listening.url;
  return {
    ...terminal,
    url: baseUrl,
    apiUrl: `${baseUrl}${API_BASE_PATH}`,
    gateUrl: `${baseUrl}${GATE_PATH}`,
    hostGateUrl: `${baseUrl}${HOST_GATE_PATH}`,
    state,
    behaviour,
    stop: () => listening.close(),
  };
}

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

function reply(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': answer.type, 'content-length': Buffer.byteLength(answer.body) });
  res.end(answer.body);
}
