// The gateway moving money through Garanti BBVA's virtual POS, played by the repo's GVP emulator
// (real HTTP on 127.0.0.1): one emulator per test file, a workspace whose default account is a
// Garanti account pointed at it (credentials encrypted as the dashboard stores them), the
// emulator's own record of orders, and the shopper's 3-D Secure step without a browser (the
// gateway's bank form -> the emulator's gate -> its ACS -> the signed callback form).
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startGarantiEmulator, type GarantiEmulator } from '../../emulators/garanti/server.ts';
import type { Order } from '../../emulators/garanti/state.ts';
import { encryptSecret } from '../../src/domain/secrets.ts';
import type { Currency } from '../../src/domain/money.ts';
import { seedWorkspace, type Merchant, type SeedOptions, type TestGateway } from './gateway.ts';
import { autoPostForm } from './payments.ts';

/** The emulator's test cards (emulators/garanti/cards.ts). */
export const GARANTI_CARDS = {
  approved: '4282209027132016',
  approvedMastercard: '5406675406675403',
  insufficientFunds: '4000000000005100',
  doNotHonour: '4000000000000507',
  expired: '4000000000005407',
  mdStatus0: '4000000000990004',
  mdStatus4: '4000000000994006',
} as const;

export interface GarantiFixture {
  emulator: GarantiEmulator;
}

/** Starts an emulator before the file's tests (stopped after them); each test starts with no behaviour rules. */
export function useGarantiEmulator(): GarantiFixture {
  const fixture = {} as GarantiFixture;
  beforeAll(async () => {
    fixture.emulator = await startGarantiEmulator({ port: 0 });
  });
  afterEach(() => fixture.emulator?.behaviour.clear());
  afterAll(() => fixture.emulator?.stop());
  return fixture;
}

export interface GarantiAccountOptions {
  model?: '3d' | '3d_pay';
  timeoutMs?: number;
  currencies?: Currency[];
  /** The account's monthly instalment rates in basis points, index = count - 1 (installmentRatesBp). */
  installmentRatesBp?: number[];
  isDefault?: boolean;
}

/** The credentials JSON a merchant enters for the emulator's terminal. */
export function garantiCredentials(emulator: GarantiEmulator): Record<string, string> {
  return {
    merchant_id: emulator.merchantId,
    terminal_id: emulator.terminalId,
    provision_user: emulator.provisionUser,
    provision_password: emulator.provisionPassword,
    refund_user: emulator.refundUser,
    refund_password: emulator.refundPassword,
    store_key: emulator.storeKey,
  };
}

/** A Garanti payment account on the emulator, as the dashboard stores one. */
export async function addGarantiAccount(t: TestGateway, workspaceId: string, emulator: GarantiEmulator, opts: GarantiAccountOptions = {}): Promise<string> {
  const db = t.gateway.services.db;
  const account = await db.paymentAccount.create({
    data: {
      workspaceId,
      name: 'Garanti BBVA',
      provider: 'garanti',
      mode: 'test',
      currencies: opts.currencies ?? ['TRY', 'USD', 'EUR'],
      installmentRatesBp: opts.installmentRatesBp ?? [],
      credentials: encryptSecret(t.gateway.masterKey, JSON.stringify(garantiCredentials(emulator))),
      settings: { environment: 'test', model: opts.model ?? '3d', gate_url: emulator.gateUrl, api_url: emulator.apiUrl, timeout_ms: opts.timeoutMs ?? 60_000, lang: 'en' },
    },
  });
  if (opts.isDefault ?? true) await db.workspace.update({ where: { id: workspaceId }, data: { defaultPaymentAccountId: account.id } });
  await t.gateway.admission.synced();
  return account.id;
}

/** A workspace whose only account is a Garanti account on the emulator, made its default. */
export async function seedGarantiMerchant(t: TestGateway, emulator: GarantiEmulator, opts: GarantiAccountOptions & Omit<SeedOptions, 'defaultAccount'> = {}): Promise<Merchant> {
  const m = await seedWorkspace(t, { ...opts, defaultAccount: false });
  // seedWorkspace always makes a simulator account; this workspace pays through Garanti only.
  await t.gateway.services.db.paymentAccount.update({ where: { id: m.accountToken }, data: { deletedAt: new Date() } });
  const accountToken = await addGarantiAccount(t, m.workspaceId, emulator, opts);
  return { ...m, accountToken };
}

export type EmulatorOrder = Order & { charged: number; refunded: number };

/** What the emulator holds, read over its control API as any client would. */
export async function garantiState(emulator: GarantiEmulator): Promise<{ orders: EmulatorOrder[]; threeDSessions: Array<Record<string, unknown>> }> {
  const res = await fetch(`${emulator.url}/_emulator/state`);
  if (res.status !== 200) throw new Error(`emulator state answered ${res.status}`);
  return (await res.json()) as { orders: EmulatorOrder[]; threeDSessions: Array<Record<string, unknown>> };
}

/** The emulator's order for a payment (its providerReference starts with GVP's order id). */
export async function garantiOrderOf(t: TestGateway, emulator: GarantiEmulator, paymentId: string): Promise<EmulatorOrder | undefined> {
  const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
  const orderId = row.providerReference?.split(':')[0];
  return (await garantiState(emulator)).orders.find((o) => o.orderId === orderId);
}

/** Sets what the next calls do (decline, fail, timeout, slow), over the control API. */
export async function setGarantiBehaviour(emulator: GarantiEmulator, rule: { mode: 'decline' | 'fail' | 'timeout' | 'slow'; count?: number; delayMs?: number }): Promise<void> {
  const res = await fetch(`${emulator.url}/_emulator/behaviour`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rule) });
  if (res.status !== 200) throw new Error(`emulator behaviour answered ${res.status}: ${await res.text()}`);
}

export async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; html: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  return { status: res.status, html: await res.text() };
}

/** The bank form the gateway's redirect address answers (id "bank"), card fields joined in. */
export async function bankFormOf(redirectUrl: string): Promise<{ action: string; fields: Record<string, string> }> {
  const page = await fetch(redirectUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`the redirect address answered ${page.status}: ${html.slice(0, 200)}`);
  const form = autoPostForm(html);
  if (form?.id !== 'bank') throw new Error('the redirect page has no bank form');
  return form;
}

/**
 * What a browser does with the bank form: posts it to GVP's gate, presses `decision` on the ACS
 * page (a card whose ACS answers without a challenge skips it) and reads the page that posts the
 * signed callback. Returns that form: where it posts (the gateway's callback address) and its fields.
 */
export async function answerGarantiAcs(form: { action: string; fields: Record<string, string> }, decision: 'approve' | 'decline'): Promise<{ callbackUrl: string; fields: Record<string, string> }> {
  const gate = await postForm(form.action, form.fields);
  if (gate.status !== 200) throw new Error(`the emulator's gate answered ${gate.status}: ${gate.html.slice(0, 300)}`);
  let page = gate.html;
  const action = new RegExp(`<form method="post" action="([^"]+)">\\s*<input type="hidden" name="decision" value="${decision}">`).exec(page)?.[1];
  if (action) {
    const answered = await postForm(new URL(action.replace(/&amp;/g, '&'), form.action).href, { decision });
    if (answered.status !== 200) throw new Error(`the ACS answered ${answered.status}`);
    page = answered.html;
  }
  const back = autoPostForm(page);
  if (!back) throw new Error('the ACS answer page has no callback form');
  return { callbackUrl: back.action, fields: back.fields };
}

export interface LoggedExchange {
  operation: string;
  [key: string]: unknown;
}

/** The gateway's calls to GVP so far, from its log (scrubbed exchanges), oldest first. */
export function garantiCalls(t: TestGateway, operation?: string): LoggedExchange[] {
  return t.logLines
    .map((line) => JSON.parse(line) as { msg?: string } & LoggedExchange)
    .filter((l) => l.msg === 'garanti exchange' && (operation === undefined || l.operation === operation));
}
