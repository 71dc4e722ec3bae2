// The QNB Finansbank PayFor emulator on the shared bank server (../bank/server.ts): its 3D gate and
// ACS (gate.ts), its XML API (xmlapi.ts) and its books (state.ts).
import type { Behaviour, Latency } from '../iyzico/behaviour.ts';
import { decisionAcs, html, PLAIN_ERRORS, plainText, startBankServer } from '../bank/server.ts';
import { DEFAULT_PAYFOR_TERMINAL, type PayforTerminal } from './config.ts';
import { completeAcs, openGate, type GateContext } from './gate.ts';
import { errorPage } from './pages.ts';
import { PayforState } from './state.ts';
import { handleXml, isCharge } from './xmlapi.ts';

/** PayFor's paths (as on vpos.qnbfinansbank.com). */
export const GATE_PATH = '/Gateway/Default.aspx';
export const API_PATH = '/Gateway/XMLGate.aspx';

export interface PayforEmulatorOptions extends Partial<PayforTerminal> {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Every gate and API answer waits a uniformly random [minMs, maxMs] first. */
  latency?: Latency;
  /** The bank's clock (expiry dates, transaction times); the real one by default. */
  now?: () => Date;
  /** The callback's ResponseHash digest: SHA-1 (with HashType Sha1, the default) or SHA-256, as the bank's newer answers sign. */
  hashAlgorithm?: 'sha1' | 'sha256';
}

export interface PayforEmulator extends PayforTerminal {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  gateUrl: string;
  apiUrl: string;
  state: PayforState;
  behaviour: Behaviour;
  stop(): Promise<void>;
}

/** Starts the QNB Finansbank PayFor emulator on host:port and resolves once it listens. */
export async function startPayforEmulator(options: PayforEmulatorOptions = {}): Promise<PayforEmulator> {
  const terminal: PayforTerminal = {
    merchantId: options.merchantId ?? DEFAULT_PAYFOR_TERMINAL.merchantId,
    userCode: options.userCode ?? DEFAULT_PAYFOR_TERMINAL.userCode,
    userPassword: options.userPassword ?? DEFAULT_PAYFOR_TERMINAL.userPassword,
    storeKey: options.storeKey ?? DEFAULT_PAYFOR_TERMINAL.storeKey,
  };
  const now = options.now ?? (() => new Date());
  const state = new PayforState();

  const server = await startBankServer(options, (baseUrl) => {
    const gateContext = (forceDecline: boolean): GateContext => ({ state, terminal, now: now(), baseUrl: baseUrl(), forceDecline, hashAlgorithm: options.hashAlgorithm ?? 'sha1' });
    return {
      name: 'payfor emulator',
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
          charges: isCharge,
          answer: (raw, call) => ({ status: 200, type: 'text/xml; charset=utf-8', body: handleXml(raw, { state, terminal, now: now(), forceDecline: call.forceDecline }) }),
          failure: plainText(500, 'Internal Server Error'),
        },
      ],
      acs: decisionAcs((id, decision) => completeAcs(id, decision, gateContext(false))),
      unknownAcs: html(404, errorPage('Bilinmeyen ya da yanıtlanmış 3-D Secure doğrulaması')),
      ...PLAIN_ERRORS,
    };
  });

  return { ...terminal, url: server.url, gateUrl: `${server.url}${GATE_PATH}`, apiUrl: `${server.url}${API_PATH}`, state, behaviour: server.behaviour, stop: () => server.stop() };
}
