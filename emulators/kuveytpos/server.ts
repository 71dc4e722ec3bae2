// The Kuveyt Türk KuveytPOS emulator on the shared bank server (../bank/server.ts): its 3-D gate
// and ACS (gate.ts), its payment API (api.ts), its SOAP service (soap.ts) and its books (state.ts).
import type { Behaviour, Latency } from '../iyzico/behaviour.ts';
import { html, PLAIN_ERRORS, startBankServer } from '../bank/server.ts';
import { errorPage } from '../bank/pages.ts';
import { charges, non3dSale, provision } from './api.ts';
import { DEFAULT_KUVEYT_TERMINAL, type KuveytTerminal } from './config.ts';
import { acs, enroll } from './gate.ts';
import { handleSoap } from './soap.ts';
import { KuveytState } from './state.ts';

/** KuveytPOS's paths (as on boatest.kuveytturk.com.tr). */
export const PAYMENT_PATH = '/boa.virtualpos.services/Home';
export const GATE_PATH = `${PAYMENT_PATH}/ThreeDModelPayGate`;
export const QUERY_PATH = '/BOA.Integration.WCFService/BOA.Integration.VirtualPos/VirtualPosService.svc/Basic';

export interface KuveytEmulatorOptions extends Partial<KuveytTerminal> {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Every gate and API answer waits a uniformly random [minMs, maxMs] first. */
  latency?: Latency;
  /** The bank's clock (expiry dates, transaction times); the real one by default. */
  now?: () => Date;
}

export interface KuveytEmulator extends KuveytTerminal {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  gateUrl: string;
  paymentUrl: string;
  queryUrl: string;
  state: KuveytState;
  behaviour: Behaviour;
  stop(): Promise<void>;
}

const BANK = 'KuveytPOS';
const xml = (status: number, body: string) => ({ status, type: 'text/xml; charset=utf-8', body });

/** Starts the KuveytPOS emulator on host:port and resolves once it listens. */
export async function startKuveytEmulator(options: KuveytEmulatorOptions = {}): Promise<KuveytEmulator> {
  const terminal: KuveytTerminal = {
    merchantId: options.merchantId ?? DEFAULT_KUVEYT_TERMINAL.merchantId,
    customerId: options.customerId ?? DEFAULT_KUVEYT_TERMINAL.customerId,
    userName: options.userName ?? DEFAULT_KUVEYT_TERMINAL.userName,
    password: options.password ?? DEFAULT_KUVEYT_TERMINAL.password,
  };
  const now = options.now ?? (() => new Date());
  const state = new KuveytState();
  const failure = html(500, errorPage(BANK, 'Sistem hatası'));

  const server = await startBankServer(options, (baseUrl) => {
    const gate = () => ({ state, terminal, now: now(), baseUrl: baseUrl() });
    const api = (forceDecline: boolean) => ({ state, terminal, now: now(), forceDecline });
    return {
      name: 'kuveytpos emulator',
      books: state,
      routes: [
        {
          path: GATE_PATH,
          charges: () => false,
          answer: (raw) => {
            const page = enroll(raw, gate());
            return html(page.status, page.html);
          },
          failure,
        },
        { path: `${PAYMENT_PATH}/Non3DPayGate`, charges, answer: (raw, call) => xml(200, non3dSale(raw, api(call.forceDecline))), failure },
        { path: `${PAYMENT_PATH}/ThreeDModelProvisionGate`, charges, answer: (raw, call) => xml(200, provision(raw, api(call.forceDecline))), failure },
        {
          path: QUERY_PATH,
          charges: () => false,
          answer: (raw) => {
            const answer = handleSoap(raw, { state, terminal, now: now() });
            return xml(answer.status, answer.body);
          },
          failure,
        },
      ],
      acs: (id, step, method, raw) => {
        if (method !== 'POST') return null;
        const page = acs(id, step, raw, gate());
        return page === null ? null : html(200, page);
      },
      unknownAcs: html(404, errorPage(BANK, 'Bilinmeyen ya da yanıtlanmış 3-D Secure doğrulaması')),
      ...PLAIN_ERRORS,
    };
  });

  return { ...terminal, url: server.url, gateUrl: `${server.url}${GATE_PATH}`, paymentUrl: `${server.url}${PAYMENT_PATH}`, queryUrl: `${server.url}${QUERY_PATH}`, state, behaviour: server.behaviour, stop: () => server.stop() };
}
