import { listenOn } from '../listen.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Behaviour, type Latency } from '../iyzico/behaviour.ts';
import { DEFAULT_GARANTI_CREDENTIALS, type GarantiCredentials } from './config.ts';
import { completeAcs, openGate, type GateContext } from './gate.ts';
import { errorPage } from './pages.ts';
import { GarantiState } from './state.ts';
import { handleXml } from './xmlapi.ts';
import { parseRequest, text } from './xml.ts';

/** GVP's paths: the 3-D Secure gate and the XML API (as on sanalposprov.garanti.com.tr). */
export const GATE_PATH = '/servlet/gt3dengine';
export const API_PATH = '/VPServlet';

export interface GarantiEmulatorOptions extends Partial<GarantiCredentials> {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Every gate and API answer waits a uniformly random [minMs, maxMs] first. */
  latency?: Latency;
  /** The bank's clock (expiry dates, ProvDate); the real one by default. */
  now?: () => Date;
}

export interface GarantiEmulator extends GarantiCredentials {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** The 3-D Secure gate: url + /servlet/gt3dengine */
  gateUrl: string;
  /** The XML API: url + /VPServlet */
  apiUrl: string;
  state: GarantiState;
  behaviour: Behaviour;
  stop(): Promise<void>;
}

const MAX_BODY = 1_000_000;

/** Starts the Garanti BBVA virtual POS emulator on host:port and resolves once it listens. */
export async function startGarantiEmulator(options: GarantiEmulatorOptions = {}): Promise<GarantiEmulator> {
  const creds: GarantiCredentials = {
    merchantId: options.merchantId ?? DEFAULT_GARANTI_CREDENTIALS.merchantId,
    terminalId: options.terminalId ?? DEFAULT_GARANTI_CREDENTIALS.terminalId,
    provisionUser: options.provisionUser ?? DEFAULT_GARANTI_CREDENTIALS.provisionUser,
    provisionPassword: options.provisionPassword ?? DEFAULT_GARANTI_CREDENTIALS.provisionPassword,
    refundUser: options.refundUser ?? DEFAULT_GARANTI_CREDENTIALS.refundUser,
    refundPassword: options.refundPassword ?? DEFAULT_GARANTI_CREDENTIALS.refundPassword,
    storeKey: options.storeKey ?? DEFAULT_GARANTI_CREDENTIALS.storeKey,
  };
  const now = options.now ?? (() => new Date());
  const state = new GarantiState();
  const behaviour = new Behaviour(options.latency);
  let baseUrl = '';

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof BodyTooLarge) return send(res, 413, 'text/plain', 'request body too large');
      console.error('garanti emulator: unexpected error', error);
      if (!res.headersSent) send(res, 500, 'text/plain', 'internal error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', baseUrl);
    const raw = await readBody(req);
    const key = `${req.method} ${url.pathname}`;
    if (url.pathname.startsWith('/_emulator/')) return handleEmulator(key, url, raw, res);
    if (key !== `POST ${GATE_PATH}` && key !== `POST ${API_PATH}`) return send(res, 404, 'text/plain', `no route ${key}`);
    await behaviour.wait();
    const isGate = key === `POST ${GATE_PATH}`;
    // decline applies to calls that can charge: XML sales and the gate.
    const rule = behaviour.take(isGate || text(parseRequest(raw), 'Transaction', 'Type') === 'sales');
    if (rule?.mode === 'timeout') return; // never answer; stop() destroys the socket
    if (rule?.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, rule.delayMs));
    if (rule?.mode === 'fail') return isGate ? send(res, 500, 'text/html; charset=utf-8', errorPage('Sistem hatası')) : send(res, 500, 'text/plain', 'Internal Server Error');
    const forceDecline = rule?.mode === 'decline';
    if (isGate) {
      const page = openGate(new URLSearchParams(raw), gateContext(forceDecline));
      return send(res, page.status, 'text/html; charset=utf-8', page.html);
    }
    send(res, 200, 'application/xml; charset=utf-8', handleXml(raw, { state, creds, now: now(), forceDecline }));
  }

  function gateContext(forceDecline: boolean): GateContext {
    return { state, creds, now: now(), baseUrl, forceDecline };
  }

  function handleEmulator(key: string, url: URL, raw: string, res: ServerResponse): void {
    const acs = /^\/_emulator\/acs\/([\w-]+)\/complete$/.exec(url.pathname);
    if (acs && key.startsWith('POST ')) {
      const html = completeAcs(acs[1]!, new URLSearchParams(raw).get('decision') ?? '', gateContext(false));
      if (html === null) return send(res, 404, 'text/html; charset=utf-8', errorPage('Bilinmeyen ya da yanıtlanmış 3-D Secure doğrulaması'));
      return send(res, 200, 'text/html; charset=utf-8', html);
    }
    if (key === 'GET /_emulator/state') return sendJson(res, 200, { ...(state.snapshot() as object), behaviour: behaviour.list() });
    if (key === 'POST /_emulator/reset') {
      state.reset();
      behaviour.clear();
      return sendJson(res, 200, { ok: true });
    }
    if (key === 'POST /_emulator/behaviour') {
      try {
        return sendJson(res, 200, { rule: behaviour.set(parseObject(raw)) });
      } catch (error) {
        return sendJson(res, 400, { error: (error as Error).message });
      }
    }
    if (key === 'DELETE /_emulator/behaviour') {
      behaviour.clear();
      return sendJson(res, 200, { ok: true });
    }
    sendJson(res, 404, { error: `no emulator route ${key}` });
  }

  const listening = await listenOn(server, options);
  baseUrl = listening.url;

  return {
    ...creds,
    url: baseUrl,
    gateUrl: `${baseUrl}${GATE_PATH}`,
    apiUrl: `${baseUrl}${API_PATH}`,
    state,
    behaviour,
    stop: () => listening.close(),
  };
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BodyTooLarge();
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

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}
