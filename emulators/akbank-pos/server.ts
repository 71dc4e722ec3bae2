// The Akbank virtual POS emulator: its 3-D gates and ACS (gate.ts), its JSON API (api.ts) and its
// books (state.ts) on the shared bank server (../bank/server.ts): a bounded body, the bank's
// latency, the next control rule (decline, fail, timeout, slow: ../iyzico/behaviour.ts), the ACS
// under /_emulator/acs/<id>[/complete] and the controls under /_emulator/* (state, reset,
// behaviour). Akbank signs each API body in a header (`auth-hash`), which the API route reads
// from the request's headers.
import { errorPage } from '../bank/pages.ts';
import { html, PLAIN_ERRORS, plainText, startBankServer, type BankAnswer } from '../bank/server.ts';
import type { Behaviour, Latency } from '../iyzico/behaviour.ts';
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

const json = (status: number, body: unknown): BankAnswer => ({ status, type: 'application/json; charset=utf-8', body: typeof body === 'string' ? body : JSON.stringify(body) });

/** Starts the Akbank emulator on host:port and resolves once it listens. */
export async function startAkbankEmulator(options: AkbankEmulatorOptions = {}): Promise<AkbankEmulator> {
  const terminal: AkbankTerminal = {
    merchantSafeId: options.merchantSafeId ?? DEFAULT_AKBANK_TERMINAL.merchantSafeId,
    terminalSafeId: options.terminalSafeId ?? DEFAULT_AKBANK_TERMINAL.terminalSafeId,
    secretKey: options.secretKey ?? DEFAULT_AKBANK_TERMINAL.secretKey,
  };
  const now = options.now ?? (() => new Date());
  const state = new AkbankState();

  const server = await startBankServer(options, (baseUrl) => {
    const gateContext = (forceDecline: boolean): GateContext => ({ state, terminal, now: now(), baseUrl: baseUrl(), forceDecline });
    const gate = (path: string, at: 'securepay' | 'payhosting') => ({
      path,
      charges: () => true,
      answer: (raw: string, call: { forceDecline: boolean }) => {
        const page = openGate(new URLSearchParams(raw), at, gateContext(call.forceDecline));
        return html(page.status, page.html);
      },
      failure: html(500, errorPage(BANK, 'Sistem hatası')),
    });
    return {
      name: 'akbank-pos emulator',
      books: state,
      routes: [
        gate(GATE_PATH, 'securepay'),
        gate(HOST_GATE_PATH, 'payhosting'),
        {
          path: API_PATH,
          charges: isCharge,
          answer: (raw, call) => {
            const answer = handleApi(raw, String(call.headers?.['auth-hash'] ?? ''), { state, terminal, now: now(), forceDecline: call.forceDecline });
            return json(answer.status, answer.body);
          },
          failure: plainText(500, 'Internal Server Error'),
        },
      ],
      // The 3D Host card page posts to /_emulator/acs/<id>, the ACS's buttons to .../complete.
      acs: (id, step, method, raw) => {
        if (method !== 'POST') return null;
        const form = new URLSearchParams(raw);
        const page = step === 'complete' ? completeAcs(id, form.get('decision') ?? '', gateContext(false)) : (enterCard(id, form, gateContext(false))?.html ?? null);
        return page === null ? null : html(200, page);
      },
      unknownAcs: html(404, errorPage(BANK, 'Bilinmeyen ya da yanıtlanmış 3-D Secure doğrulaması')),
      ...PLAIN_ERRORS,
    };
  });

  return {
    ...terminal,
    url: server.url,
    apiUrl: `${server.url}${API_BASE_PATH}`,
    gateUrl: `${server.url}${GATE_PATH}`,
    hostGateUrl: `${server.url}${HOST_GATE_PATH}`,
    state,
    behaviour: server.behaviour,
    stop: () => server.stop(),
  };
}
