import type { Behaviour, Latency } from '../iyzico/behaviour.ts';
import { html, startBankServer } from '../bank/server.ts';
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
  const failed = html(500, errorPage('Sistem hatası.'));

  const server = await startBankServer(options, (baseUrl) => {
    const gateContext = (forceDecline: boolean): GateContext => ({ state, clientId: creds.clientId, storeKey: creds.storeKey, baseUrl: baseUrl(), now: now(), forceDecline });
    return {
      name: 'EST emulator',
      books: state,
      routes: [
        {
          path: GATE_PATH,
          charges: (raw) => (new URLSearchParams(raw).get('storetype') ?? '').toLowerCase() === '3d_pay',
          answer: (raw, call) => {
            const answer = gate(gateContext(call.forceDecline), new URLSearchParams(raw));
            return answer.kind === 'redirect' ? { redirect: answer.location } : html(answer.status, answer.html);
          },
          failure: failed,
        },
        {
          path: API_PATH,
          charges: (raw) => {
            const request = parseRequest(raw);
            return request !== null && isPaymentRequest(request);
          },
          answer: (raw, call) => {
            const request = parseRequest(raw);
            const answer = request
              ? handleRequest({ state, credentials: creds, now: now(), forceDecline: call.forceDecline }, request)
              : { Response: 'Error', ProcReturnCode: '99', ErrMsg: 'CC5Request XML okunamadi.', Extra: { ERRORCODE: 'CORE-2000', NUMCODE: '992000' } };
            return { status: 200, type: 'text/xml; charset=utf-8', body: buildResponse(answer) };
          },
          failure: failed,
        },
      ],
      acs: (id, step, method, raw) => {
        if (!/^[0-9a-f]+$/.test(id)) return null;
        const ctx = gateContext(false);
        const page = step === 'complete' ? (method === 'POST' ? completeAcs(ctx, id, new URLSearchParams(raw).get('decision')) : null) : renderAcs(ctx, id);
        return page === null ? null : html(200, page);
      },
      unknownAcs: html(404, errorPage('Bilinmeyen veya yanıtlanmış 3-D Secure doğrulaması.')),
      notFound: (route) => html(404, errorPage(`Bilinmeyen adres: ${route}`)),
      crashed: failed,
      tooLarge: { status: 413, type: 'text/plain; charset=utf-8', body: 'body too large' },
    };
  });

  const stop = () => server.stop();
  return { ...creds, url: server.url, gateUrl: server.url + GATE_PATH, apiUrl: server.url + API_PATH, state, behaviour: server.behaviour, stop, close: stop };
}
