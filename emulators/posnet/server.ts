// The Yapı Kredi PosNet virtual POS emulator: its XML service and its 3-D service on the shared
// bank emulator server (../bank/server.ts), with the merchant it accepts.
import { randomBytes } from 'node:crypto';
import type { Behaviour, Latency } from '../iyzico/behaviour.ts';
import { errorPage } from '../bank/pages.ts';
import { html, startBankServer } from '../bank/server.ts';
import { answerXml, charges, handle, parseRequest } from './api.ts';
import { PosnetBooks } from './books.ts';
import { acs, openGate, type GateContext } from './gate.ts';
import type { Merchant } from './hash.ts';

export const GATE_PATH = '/3DSWebService/YKBPaymentService';
export const API_PATH = '/PosnetWebService/XML';

/** The test merchant of mewebstudio/pos's PosNet tests (its ENCKEY is the test platform's). */
export const DEFAULT_POSNET_MERCHANT: Merchant = { merchantId: '6706598320', terminalId: '67005551', posnetId: '27426', encKey: '10,10,10,10,10,10,10,10' };

export interface PosnetEmulatorOptions extends Partial<Merchant> {
  host?: string;
  port?: number;
  latency?: Latency;
  now?: () => Date;
}

export interface PosnetEmulator extends Merchant {
  url: string;
  gateUrl: string;
  apiUrl: string;
  books: PosnetBooks;
  behaviour: Behaviour;
  stop(): Promise<void>;
}

export async function startPosnetEmulator(options: PosnetEmulatorOptions = {}): Promise<PosnetEmulator> {
  const merchant: Merchant = {
    merchantId: options.merchantId ?? DEFAULT_POSNET_MERCHANT.merchantId,
    terminalId: options.terminalId ?? DEFAULT_POSNET_MERCHANT.terminalId,
    posnetId: options.posnetId ?? DEFAULT_POSNET_MERCHANT.posnetId,
    encKey: options.encKey ?? DEFAULT_POSNET_MERCHANT.encKey,
  };
  const now = options.now ?? (() => new Date());
  const books = new PosnetBooks();
  const bankKey = randomBytes(32);
  const failed = html(500, errorPage('Yapı Kredi PosNet', 'Sistem hatası.'));

  const server = await startBankServer(options, (baseUrl) => {
    const gate = (): GateContext => ({ books, merchant, bankKey, baseUrl: baseUrl(), now: now() });
    return {
      name: 'PosNet emulator',
      books,
      routes: [
        { path: GATE_PATH, charges: () => false, answer: (raw) => openGate(gate(), new URLSearchParams(raw)), failure: failed },
        {
          path: API_PATH,
          charges: (raw) => charges(parseRequest(raw)),
          answer: (raw, call) => ({ status: 200, type: 'text/xml; charset=utf-8', body: answerXml(handle({ books, merchant, bankKey, now: now(), forceDecline: call.forceDecline }, parseRequest(raw))) }),
          failure: failed,
        },
      ],
      acs: (id, step, method, raw) => acs(gate(), id, step, method, raw),
      unknownAcs: html(404, errorPage('Yapı Kredi PosNet', 'Bilinmeyen veya yanıtlanmış 3-D Secure doğrulaması.')),
      notFound: (route) => html(404, errorPage('Yapı Kredi PosNet', `Bilinmeyen adres: ${route}`)),
      crashed: failed,
      tooLarge: { status: 413, type: 'text/plain; charset=utf-8', body: 'body too large' },
    };
  });

  return { ...merchant, url: server.url, gateUrl: server.url + GATE_PATH, apiUrl: server.url + API_PATH, books, behaviour: server.behaviour, stop: () => server.stop() };
}
