// The gateway moving money through QNB Finansbank's PayFor, played by the repo's PayFor emulator
// (real HTTP on 127.0.0.1): one emulator per test file, a workspace whose default account is a
// PayFor account pointed at it (credentials encrypted as the dashboard stores them), the
// emulator's own books, and the shopper's 3-D Secure step without a browser.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startPayforEmulator, type PayforEmulator } from '../../emulators/payfor/server.ts';
import type { Order } from '../../emulators/payfor/state.ts';
import { encryptSecret } from '../../src/domain/secrets.ts';
import type { PayforCredentials } from '../../src/providers/payfor/settings.ts';
import { seedWorkspace, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { autoPostForm } from '../helpers/payments.ts';

/** The emulator's test cards (emulators/payfor/cards.ts). */
export const PAYFOR_CARDS = {
  approved: '4155650100416111',
  doNotHonour: '4000000000000507',
  insufficientFunds: '4000000000005100',
  notAuthenticated: '4000000000990004',
  halfSecure: '4000000000994006',
  openBatch: '4000000000080012',
} as const;

export function usePayforEmulator(): { emulator: PayforEmulator } {
  const fixture = {} as { emulator: PayforEmulator };
  beforeAll(async () => {
    fixture.emulator = await startPayforEmulator({ port: 0 });
  });
  afterEach(() => fixture.emulator?.behaviour.clear());
  afterAll(() => fixture.emulator?.stop());
  return fixture;
}

export function payforCredentials(emulator: PayforEmulator): PayforCredentials {
  return { merchant_id: emulator.merchantId, user_code: emulator.userCode, user_password: emulator.userPassword, store_key: emulator.storeKey };
}

/** A workspace whose only account is a PayFor account on the emulator, made its default. */
export async function seedPayforMerchant(t: TestGateway, emulator: PayforEmulator, opts: { model?: '3d' | '3d_pay'; timeoutMs?: number } = {}): Promise<Merchant> {
  const m = await seedWorkspace(t, { defaultAccount: false });
  const db = t.gateway.services.db;
  // seedWorkspace always makes a simulator account; this workspace pays through PayFor only.
  await db.paymentAccount.update({ where: { id: m.accountToken }, data: { deletedAt: new Date() } });
  const account = await db.paymentAccount.create({
    data: {
      workspaceId: m.workspaceId,
      name: 'QNB Finansbank',
      provider: 'payfor',
      mode: 'test',
      currencies: ['TRY', 'USD', 'EUR'],
      installmentRatesBp: [],
      credentials: encryptSecret(t.gateway.masterKey, JSON.stringify(payforCredentials(emulator))),
      settings: { environment: 'test', model: opts.model ?? '3d', gate_url: emulator.gateUrl, api_url: emulator.apiUrl, timeout_ms: opts.timeoutMs ?? 60_000, lang: 'en' },
    },
  });
  await db.workspace.update({ where: { id: m.workspaceId }, data: { defaultPaymentAccountId: account.id } });
  await t.gateway.admission.synced();
  return { ...m, accountToken: account.id };
}

export type EmulatorOrder = Order & { charged: number; refunded: number };

/** The emulator's order for an order id, read over its control API as any client would. */
export async function payforOrder(emulator: PayforEmulator, orderId: string): Promise<EmulatorOrder | undefined> {
  const res = await fetch(`${emulator.url}/_emulator/state`);
  const state = (await res.json()) as { orders: EmulatorOrder[] };
  return state.orders.find((o) => o.orderId === orderId);
}

export async function setPayforBehaviour(emulator: PayforEmulator, rule: { mode: 'decline' | 'fail' | 'timeout' | 'slow'; count?: number; delayMs?: number }): Promise<void> {
  const res = await fetch(`${emulator.url}/_emulator/behaviour`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rule) });
  if (res.status !== 200) throw new Error(`emulator behaviour answered ${res.status}: ${await res.text()}`);
}

const postForm = async (url: string, fields: Record<string, string>) => {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  return { status: res.status, html: await res.text() };
};

/** The bank form the gateway's redirect address answers (id "bank"), card fields joined in. */
export async function bankFormOf(redirectUrl: string): Promise<{ action: string; fields: Record<string, string> }> {
  const page = await fetch(redirectUrl);
  const html = await page.text();
  const form = autoPostForm(html);
  if (page.status !== 200 || form?.id !== 'bank') throw new Error(`the redirect address answered ${page.status} without a bank form: ${html.slice(0, 200)}`);
  return form;
}

/** What a browser does with the bank form: the gate, `decision` on the ACS page (when it asks), the page posting the signed callback. */
export async function answerPayforAcs(form: { action: string; fields: Record<string, string> }, decision: 'approve' | 'decline'): Promise<{ callbackUrl: string; fields: Record<string, string> }> {
  const gate = await postForm(form.action, form.fields);
  if (gate.status !== 200) throw new Error(`the emulator's gate answered ${gate.status}: ${gate.html.slice(0, 300)}`);
  let page = gate.html;
  const action = new RegExp(`<form method="post" action="([^"]+)">\\s*<input type="hidden" name="decision" value="${decision}">`).exec(page)?.[1];
  if (action) page = (await postForm(new URL(action.replace(/&amp;/g, '&'), form.action).href, { decision })).html;
  const back = autoPostForm(page);
  if (!back) throw new Error('the ACS answer page has no callback form');
  return { callbackUrl: back.action, fields: back.fields };
}

/** The gateway's calls to PayFor so far, from its log (scrubbed exchanges), oldest first. */
export function payforCalls(t: TestGateway, operation?: string): Array<{ operation: string } & Record<string, unknown>> {
  return t.logLines
    .map((line) => JSON.parse(line) as { msg?: string; operation: string })
    .filter((l) => l.msg === 'payfor exchange' && (operation === undefined || l.operation === operation));
}
