// The Denizbank InterPOS virtual POS emulator on the bank emulators' shared server
// (../bank/server.ts): InterPOS's one address for the 3D gate and the API (/mpi/Default.aspx, told
// apart by SecureType as InterPOS does), the 3D Host page (/mpi/3DHost.aspx), the ACS, the books.
import type { Behaviour, Latency } from '../iyzico/behaviour.ts';
import { html, startBankServer, type BankAnswer } from '../bank/server.ts';
import { handleApi } from './api.ts';
import { DEFAULT_INTERPOS_CREDENTIALS, type InterPosCredentials } from './config.ts';
import { completeAcs, openGate, takeCard, type GateContext } from './gate.ts';
import { errorPage } from './pages.ts';
import { InterPosState } from './state.ts';

/** InterPOS's paths (as on inter-vpos.com.tr). */
export const GATE_PATH = '/mpi/Default.aspx';
export const HOST_PATH = '/mpi/3DHost.aspx';

export interface InterPosEmulatorOptions extends Partial<InterPosCredentials> {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Every gate and API answer waits a uniformly random [minMs, maxMs] first. */
  latency?: Latency;
  /** The bank's clock (expiry dates, TRXDATE); the real one by default. */
  now?: () => Date;
}

export interface InterPosEmulator extends InterPosCredentials {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** The 3D gate and the API: url + /mpi/Default.aspx */
  gateUrl: string;
  apiUrl: string;
  /** The 3D Host model's page: url + /mpi/3DHost.aspx */
  hostUrl: string;
  state: InterPosState;
  behaviour: Behaviour;
  stop(): Promise<void>;
}

const text = (status: number, body: string): BankAnswer => ({ status, type: 'text/plain; charset=utf-8', body });
const isApi = (raw: string) => new URLSearchParams(raw).get('SecureType') === 'NonSecure';

/** Starts the InterPOS emulator on host:port and resolves once it listens. */
export async function startInterPosEmulator(options: InterPosEmulatorOptions = {}): Promise<InterPosEmulator> {
  const D = DEFAULT_INTERPOS_CREDENTIALS;
  const creds: InterPosCredentials = {
    shopCode: options.shopCode ?? D.shopCode,
    userCode: options.userCode ?? D.userCode,
    userPassword: options.userPassword ?? D.userPassword,
    storeKey: options.storeKey ?? D.storeKey,
  };
  const now = options.now ?? (() => new Date());
  const state = new InterPosState();

  const server = await startBankServer(options, (baseUrl) => {
    const gate = (forceDecline: boolean): GateContext => ({ state, creds, now: now(), baseUrl: baseUrl(), forceDecline });
    const page = (p: { status: number; html: string }) => html(p.status, p.html);
    return {
      name: 'interpos emulator',
      books: state,
      routes: [
        {
          path: GATE_PATH,
          // decline applies to what can charge: an API sale and the gate.
          charges: (raw) => !isApi(raw) || new URLSearchParams(raw).get('TxnType') === 'Auth',
          answer: (raw, call) =>
            isApi(raw) ? text(200, handleApi(raw, { state, creds, now: now(), forceDecline: call.forceDecline })) : page(openGate(new URLSearchParams(raw), false, gate(call.forceDecline))),
          failure: text(500, 'Server Error in \'/mpi\' Application.'),
        },
        {
          path: HOST_PATH,
          charges: () => true,
          answer: (raw, call) => page(openGate(new URLSearchParams(raw), true, gate(call.forceDecline))),
          failure: html(500, errorPage('Sistem hatası')),
        },
      ],
      acs: (id, step, method, raw) => {
        if (method !== 'POST') return null;
        if (step === 'page') {
          const answered = takeCard(id, new URLSearchParams(raw), gate(false));
          return answered === null ? null : page(answered);
        }
        const answered = completeAcs(id, new URLSearchParams(raw).get('decision') ?? '', gate(false));
        return answered === null ? null : html(200, answered);
      },
      unknownAcs: html(404, errorPage('Bilinmeyen ya da yanıtlanmış 3-D Secure doğrulaması')),
      notFound: (route) => text(404, `no route ${route}`),
      crashed: text(500, 'internal error'),
      tooLarge: text(413, 'request body too large'),
    };
  });

  return { ...creds, url: server.url, gateUrl: `${server.url}${GATE_PATH}`, apiUrl: `${server.url}${GATE_PATH}`, hostUrl: `${server.url}${HOST_PATH}`, state, behaviour: server.behaviour, stop: () => server.stop() };
}
