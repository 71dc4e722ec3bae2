// The gateway moving money through an EST (Payten) bank's virtual POS, played by the repo's EST
// emulator (real HTTP on 127.0.0.1, nothing leaves the machine): one emulator per test file, a
// workspace whose default account is an EST account pointed at the emulator's 3D gate and XML
// API, what the emulator holds, and the shopper's 3-D Secure trip without a browser (the
// gateway's auto-posting bank form -> the emulator's gate -> its ACS -> the signed callback form).
import { startEstEmulator, type EstEmulator } from '../../emulators/est/server.ts';
import type { EstOrder } from '../../emulators/est/state.ts';
import { bankOrderId } from '../../src/providers/bank-order-id.ts';
import { addBankAccount, bankCalls, bankState, seedBankMerchant, setBankBehaviour, useBankEmulator, type BankAccount } from './bank.ts';
import type { Merchant, SeedOptions, TestGateway } from './gateway.ts';
import { autoPostForm } from './payments.ts';

/** Test cards (emulators/est/cards.ts). */
export const EST_CARDS = {
  approved: '4355084355084358',
  approvedMastercard: '5406675406675403',
  insufficientFunds: '4355080000000054',
  doNotHonour: '4355080000000104',
  mdStatus0: '4355080000000401',
  mdStatus4: '4355080000000500',
} as const;

export interface EstFixture {
  emulator: EstEmulator;
}

/** Starts an emulator before the file's tests (stopped after them); each test starts with no behaviour rules. */
export const useEstEmulator = (): EstFixture => useBankEmulator(startEstEmulator);

export interface EstAccountOptions {
  model?: '3d' | '3d_pay';
  timeoutMs?: number;
  /** The account's monthly installment rates in basis points. */
  installmentRatesBp?: number[];
}

/** The account's settings JSON, as the dashboard stores it. */
export const estSettings = (emulator: EstEmulator, opts: EstAccountOptions = {}) => ({
  bank: 'akbank',
  environment: 'test',
  model: opts.model ?? '3d',
  gate_url: emulator.gateUrl,
  api_url: emulator.apiUrl,
  timeout_ms: opts.timeoutMs ?? 60_000,
  lang: 'tr',
});

const estAccount = (emulator: EstEmulator, opts: EstAccountOptions): BankAccount => ({
  provider: 'est',
  name: 'Akbank (EST)',
  credentials: { client_id: emulator.clientId, store_key: emulator.storeKey, api_user: emulator.apiUser, api_password: emulator.apiPassword },
  settings: estSettings(emulator, opts),
  ...(opts.installmentRatesBp ? { installmentRatesBp: opts.installmentRatesBp } : {}),
});

/** An EST payment account on the emulator, made the workspace's default: credentials encrypted, settings JSON. */
export function addEstAccount(t: TestGateway, workspaceId: string, emulator: EstEmulator, opts: EstAccountOptions = {}): Promise<string> {
  return addBankAccount(t, workspaceId, estAccount(emulator, opts));
}

/** A workspace whose only account is an EST account on the emulator. */
export function seedEstMerchant(t: TestGateway, emulator: EstEmulator, opts: EstAccountOptions & Omit<SeedOptions, 'defaultAccount'> = {}): Promise<Merchant> {
  return seedBankMerchant(t, estAccount(emulator, opts), opts);
}

/** The emulator's order behind a gateway payment (its order id: bankOrderId). */
export function estOrderOf(emulator: EstEmulator, paymentId: string): EstOrder | undefined {
  return emulator.state.orders.get(bankOrderId(`${paymentId}:charge`));
}

/** What the emulator holds, read over its control API as any client would. */
export const estState = (emulator: EstEmulator) => bankState<{ orders: EstOrder[]; pending3D: unknown[] }>(emulator);

/** Sets what the next calls do (decline, fail, timeout, slow), over the control API. */
export const setEstBehaviour = setBankBehaviour;

const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

/**
 * What a browser does with the gateway's 3D address: the page's form "bank" posts the card to the
 * emulator's gate, which redirects to its ACS; the shopper presses `decision` there and the ACS
 * answers a page that posts the signed callback. Returns the bank form and that callback form.
 */
export async function answerEstAcs(redirectUrl: string, decision: 'approve' | 'decline' = 'approve') {
  const page = await fetch(redirectUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`the 3D address answered ${page.status}: ${html.slice(0, 300)}`);
  const bank = autoPostForm(html);
  if (!bank) throw new Error('the 3D page has no auto-posting form');
  const atGate = await postForm(bank.action, bank.fields);
  if (atGate.status !== 303) throw new Error(`the gate answered ${atGate.status}: ${(await atGate.text()).slice(0, 300)}`);
  const acsUrl = new URL(atGate.headers.get('location')!, bank.action).href;
  const acsHtml = await (await fetch(acsUrl)).text();
  const action = /<form method="post" action="([^"]*)"/.exec(acsHtml)?.[1];
  if (!action) throw new Error(`no ACS form: ${acsHtml.slice(0, 300)}`);
  const answered = await postForm(new URL(action, acsUrl).href, { decision });
  const back = autoPostForm(await answered.text());
  if (answered.status !== 200 || !back) throw new Error(`the ACS answer page (${answered.status}) has no callback form`);
  return { bank, acsUrl, callbackUrl: back.action, fields: back.fields };
}

export interface LoggedExchange {
  operation: string;
  request: Record<string, unknown>;
  outcome: string;
  httpStatus: number | null;
  response: Record<string, unknown> | null;
}

/** The gateway's calls to EST so far, from its log (the connector logs each exchange, scrubbed), oldest first. */
export const estCalls = (t: TestGateway, operation?: string) => bankCalls(t, 'est', operation) as unknown as LoggedExchange[];
