import type { Behaviour, Latency } from '../iyzico/behaviour.ts';
import { decisionAcs, html, PLAIN_ERRORS, plainText, startBankServer } from '../bank/server.ts';
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

  const server = await startBankServer(options, (baseUrl) => {
    const gateContext = (forceDecline: boolean): GateContext => ({ state, creds, now: now(), baseUrl: baseUrl(), forceDecline });
    return {
      name: 'garanti emulator',
      books: state,
      routes: [
        {
          path: GATE_PATH,
          charges: () => true,
          answer: (raw, call) => {
            const page = openGate(new URLSearchParams(raw), gateContext(call.forceDecline));
            return html(page.status, page.html);
          },
          failure: html(500, errorPage('Sistem hatası')),
        },
        {
          path: API_PATH,
          // decline applies to calls that can charge: XML sales and the gate.
          charges: (raw) => text(parseRequest(raw), 'Transaction', 'Type') === 'sales',
          answer: (raw, call) => ({ status: 200, type: 'application/xml; charset=utf-8', body: handleXml(raw, { state, creds, now: now(), forceDecline: call.forceDecline }) }),
          failure: plainText(500, 'Internal Server Error'),
        },
      ],
      acs: decisionAcs((id, decision) => completeAcs(id, decision, gateContext(false))),
      unknownAcs: html(404, errorPage('Bilinmeyen ya da yanıtlanmış 3-D Secure doğrulaması')),
      ...PLAIN_ERRORS,
    };
  });

  return { ...creds, url: server.url, gateUrl: `${server.url}${GATE_PATH}`, apiUrl: `${server.url}${API_PATH}`, state, behaviour: server.behaviour, stop: () => server.stop() };
}
