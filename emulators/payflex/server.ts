// The VakıfBank PayFlex emulator on the shared bank server (../bank/server.ts): its MPI and ACS
// (mpi.ts), its VPOS and search (vpos.ts) and its books (state.ts).
import type { Behaviour, Latency } from '../iyzico/behaviour.ts';
import { errorPage } from '../bank/pages.ts';
import { html, PLAIN_ERRORS, plainText, startBankServer } from '../bank/server.ts';
import { DEFAULT_PAYFLEX_TERMINAL, ENROLLMENT_PATH, SEARCH_PATH, VPOS_PATH, type PayflexTerminal } from './config.ts';
import { acsComplete, acsOpen, enroll, type MpiContext } from './mpi.ts';
import { PayflexState } from './state.ts';
import { handleSearch, handleVpos, isSale, type VposContext } from './vpos.ts';

export interface PayflexEmulatorOptions extends Partial<PayflexTerminal> {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Every MPI, VPOS and search answer waits a uniformly random [minMs, maxMs] first. */
  latency?: Latency;
  /** The bank's clock (expiry dates, transaction times); the real one by default. */
  now?: () => Date;
}

export interface PayflexEmulator extends PayflexTerminal {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  enrollmentUrl: string;
  apiUrl: string;
  queryUrl: string;
  state: PayflexState;
  behaviour: Behaviour;
  stop(): Promise<void>;
}

const BANK = 'VakıfBank';
const XML = 'text/xml; charset=utf-8';

/** Starts the VakıfBank PayFlex emulator on host:port and resolves once it listens. */
export async function startPayflexEmulator(options: PayflexEmulatorOptions = {}): Promise<PayflexEmulator> {
  const terminal: PayflexTerminal = {
    merchantId: options.merchantId ?? DEFAULT_PAYFLEX_TERMINAL.merchantId,
    password: options.password ?? DEFAULT_PAYFLEX_TERMINAL.password,
    terminalNo: options.terminalNo ?? DEFAULT_PAYFLEX_TERMINAL.terminalNo,
  };
  const now = options.now ?? (() => new Date());
  const state = new PayflexState();
  const text500 = plainText(500, 'Internal Server Error');

  const server = await startBankServer(options, (baseUrl) => {
    const mpi = (): MpiContext => ({ state, terminal, now: now(), baseUrl: baseUrl() });
    const vpos = (forceDecline: boolean): VposContext => ({ state, terminal, now: now(), forceDecline });
    return {
      name: 'payflex emulator',
      books: state,
      routes: [
        { path: ENROLLMENT_PATH, charges: () => false, answer: (raw) => ({ status: 200, type: XML, body: enroll(raw, mpi()) }), failure: text500 },
        { path: VPOS_PATH, charges: isSale, answer: (raw, call) => ({ status: 200, type: XML, body: handleVpos(raw, vpos(call.forceDecline)) }), failure: text500 },
        { path: SEARCH_PATH, charges: () => false, answer: (raw) => ({ status: 200, type: XML, body: handleSearch(raw, vpos(false)) }), failure: text500 },
      ],
      acs: (id, step, method, raw) => {
        if (method !== 'POST') return null;
        if (step === 'page') {
          const page = acsOpen(id, raw, mpi());
          return page === null ? null : html(page.status, page.html);
        }
        const page = acsComplete(id, new URLSearchParams(raw).get('decision') ?? '', mpi());
        return page === null ? null : html(200, page);
      },
      unknownAcs: html(404, errorPage(BANK, 'Bilinmeyen ya da yanıtlanmış 3-D Secure doğrulaması')),
      ...PLAIN_ERRORS,
    };
  });

  return {
    ...terminal,
    url: server.url,
    enrollmentUrl: `${server.url}${ENROLLMENT_PATH}`,
    apiUrl: `${server.url}${VPOS_PATH}`,
    queryUrl: `${server.url}${SEARCH_PATH}`,
    state,
    behaviour: server.behaviour,
    stop: () => server.stop(),
  };
}
