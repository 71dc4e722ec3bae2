import { listenOn } from '../listen.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Behaviour, type Latency } from '../iyzico/behaviour.ts';
import { handleRequest, isPaymentRequest } from './api.ts';
import { completeAcs, gate, renderAcs, type GateContext } from './gate.ts';
import { errorPage } from './pages.ts';
import { EstState } from './state.ts';
import { buildResponse, parseRequest } from './xml.ts';

export interface EstCredentials {
  /** The merchant's store number (clientid / ClientId). */
  clientId: string;
  /** The 3D store key: signs the gate form and the callback (ver3 hash). */
  storeKey: string;
  /** The API user and password of the XML API (Name / Password). */
  apiUser: string;
  apiPassword: string;
}

export interface EstEmulatorOptions extends Partial<EstCredentials> {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Every gate and API answer waits a uniformly random [minMs, maxMs] first. */
  latency?: Latency;
  /** The emulator's clock (card expiry, transaction dates); the real time by default. */
  now?: () => Date;
}

export interface EstEmulator extends EstCredentials {
  url: string;
  /** The 3D gate, where the merchant's form posts (EST's /fim/est3Dgate). */
  gateUrl: string;
  /** The XML API (EST's /fim/api). */
  apiUrl: string;
  state: EstState;
  behaviour: Behaviour;
  stop(): Promise<void>;
  /** The same as stop(), named as the iyzico emulator's. */
  close(): Promise<void>;
}

export const DEFAULT_EST_CREDENTIALS: EstCredentials = { clientId: '190100000', storeKey: 'TRPS0200', apiUser: 'ESTAPI', apiPassword: 'ESTAPI01' };
export const GATE_PATH = '/fim/est3Dgate';
export const API_PATH = '/fim/api';
const MAX_BODY = 1_000_000;

/** Starts the EST (Payten/Asseco) virtual POS emulator on host:port and resolves once it listens. */
export async function startEstEmulator(options: EstEmulatorOptions = {}): Promise<EstEmulator> {
  const creds: EstCredentials = {
    clientId: options.clientId ?? DEFAULT_EST_CREDENTIALS.clientId,
    storeKey: options.storeKey ?? DEFAULT_EST_CREDENTIALS.storeKey,
    apiUser: options.apiUser ?? DEFAULT_EST_CREDENTIALS.apiUser,
    apiPassword: options.apiPassword ?? DEFAULT_EST_CREDENTIALS.apiPassword,
  };
  const now = options.now ?? (() => new Date());
  const state = new EstState();
  const behaviour = new Behaviour(options.latency);
  let baseUrl = '';

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('EST emulator: unexpected error', error);
      if (!res.headersSent) send(res, 500, 'text/html', errorPage('Sistem hatası.'));
    });
  });

  const gateContext = (forceDecline: boolean): GateContext => ({ state, clientId: creds.clientId, storeKey: creds.storeKey, baseUrl, now: now(), forceDecline });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', baseUrl);
    const raw = await readBody(req);
    if (raw === null) return send(res, 413, 'text/plain', 'body too large');
    if (url.pathname.startsWith('/_emulator/')) return handleEmulator(req.method ?? 'GET', url, raw, res);
    const route = `${req.method} ${url.pathname}`;
    if (route === `POST ${GATE_PATH}`) return handleGate(raw, res);
    if (route === `POST ${API_PATH}`) return handleApi(raw, res);
    send(res, 404, 'text/html', errorPage(`Bilinmeyen adres: ${route}`));
  }

  /** Applies the next control rule; false when the call must not be answered normally (already handled). */
  async function controlled(isPayment: boolean, res: ServerResponse): Promise<{ proceed: boolean; forceDecline: boolean }> {
    await behaviour.wait();
    const rule = behaviour.take(isPayment);
    if (rule?.mode === 'timeout') return { proceed: false, forceDecline: false }; // never answer; stop() destroys the socket
    if (rule?.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, rule.delayMs));
    if (rule?.mode === 'fail') {
      send(res, 500, 'text/html', errorPage('Sistem hatası.'));
      return { proceed: false, forceDecline: false };
    }
    return { proceed: true, forceDecline: rule?.mode === 'decline' };
  }

  async function handleGate(raw: string, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(raw);
    const control = await controlled((form.get('storetype') ?? '').toLowerCase() === '3d_pay', res);
    if (!control.proceed) return;
    const answer = gate(gateContext(control.forceDecline), form);
    if (answer.kind === 'redirect') {
      res.writeHead(303, { location: answer.location, 'content-length': 0 });
      return void res.end();
    }
    send(res, answer.status, 'text/html', answer.html);
  }

  async function handleApi(raw: string, res: ServerResponse): Promise<void> {
    const request = parseRequest(raw);
    const control = await controlled(request !== null && isPaymentRequest(request), res);
    if (!control.proceed) return;
    const answer = request
      ? handleRequest({ state, credentials: creds, now: now(), forceDecline: control.forceDecline }, request)
      : { Response: 'Error', ProcReturnCode: '99', ErrMsg: 'CC5Request XML okunamadi.', Extra: { ERRORCODE: 'CORE-2000', NUMCODE: '992000' } };
    send(res, 200, 'text/xml', buildResponse(answer));
  }

  function handleEmulator(method: string, url: URL, raw: string, res: ServerResponse): void {
    const acs = /^\/_emulator\/acs\/([0-9a-f]+)(\/complete)?$/.exec(url.pathname);
    if (acs) {
      const ctx = gateContext(false);
      const html = acs[2] ? (method === 'POST' ? completeAcs(ctx, acs[1]!, new URLSearchParams(raw).get('decision')) : null) : renderAcs(ctx, acs[1]!);
      if (html === null) return send(res, 404, 'text/html', errorPage('Bilinmeyen veya yanıtlanmış 3-D Secure doğrulaması.'));
      return send(res, 200, 'text/html', html);
    }
    const key = `${method} ${url.pathname}`;
    if (key === 'GET /_emulator/state') return sendJson(res, 200, { ...state.snapshot(), behaviour: behaviour.list() });
    if (key === 'POST /_emulator/reset') {
      state.reset();
      behaviour.clear();
      return sendJson(res, 200, { ok: true });
    }
    if (key === 'POST /_emulator/behaviour') {
      try {
        const input = JSON.parse(raw || '{}') as Record<string, unknown>;
        return sendJson(res, 200, { rule: behaviour.set(input && typeof input === 'object' ? input : {}) });
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

  const stop = () => listening.close();
  return { ...creds, url: baseUrl, gateUrl: baseUrl + GATE_PATH, apiUrl: baseUrl + API_PATH, state, behaviour, stop, close: stop };
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

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json', JSON.stringify(body));
}
