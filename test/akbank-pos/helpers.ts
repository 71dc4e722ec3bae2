// The gateway moving money through Akbank's virtual POS, played by the repo's Akbank emulator
// (real HTTP on 127.0.0.1): one emulator per test file, a workspace whose default account is an
// Akbank account pointed at it (credentials encrypted as the dashboard stores them), the
// emulator's own books, and the shopper's 3-D Secure step without a browser.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startAkbankEmulator, type AkbankEmulator } from '../../emulators/akbank-pos/server.ts';
import type { Order } from '../../emulators/akbank-pos/state.ts';
import { encryptSecret } from '../../src/domain/secrets.ts';
import type { AkbankPosCredentials } from '../../src/providers/akbank-pos/settings.ts';
import { seedWorkspace, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { autoPostForm } from '../helpers/payments.ts';

/** The emulator's test cards (emulators/akbank-pos/cards.ts). */
export const AKBANK_CARDS = {
  approved: '4355093000315232',
  doNotHonour: '4000000000000507',
  insufficientFunds: '4000000000005100',
  notAuthenticated: '4000000000990004',
  halfSecure: '4000000000994006',
} as const;

export type AkbankModel = '3d' | '3d_pay' | '3d_host';

export function useAkbankEmulator(): { emulator: AkbankEmulator } {
  const fixture = {} as { emulator: AkbankEmulator };
  beforeAll(async () => {
    fixture.emulator = await startAkbankEmulator({ port: 0 });
  });
  afterEach(() => fixture.emulator?.behaviour.clear());
  afterAll(() => fixture.emulator?.stop());
  return fixture;
}

export function akbankCredentials(emulator: AkbankEmulator): AkbankPosCredentials {
  return { merchant_safe_id: emulator.merchantSafeId, terminal_safe_id: emulator.terminalSafeId, secret_key: emulator.secretKey };
}

/** A workspace whose only account is an Akbank account on the emulator, made its default. */
export async function seedAkbankMerchant(t: TestGateway, emulator: AkbankEmulator, opts: { model?: AkbankModel; timeoutMs?: number } = {}): Promise<Merchant> {
  const m = await seedWorkspace(t, { defaultAccount: false });
  const db = t.gateway.services.db;
  // seedWorkspace always makes a simulator account; this workspace pays through Akbank only.
  await db.paymentAccount.update({ where: { id: m.accountToken }, data: { deletedAt: new Date() } });
  const account = await db.paymentAccount.create({
    data: {
      workspaceId: m.workspaceId,
      name: 'Akbank',
      provider: 'akbank-pos',
      mode: 'test',
      currencies: ['TRY', 'USD', 'EUR'],
      installmentRatesBp: [],
      credentials: encryptSecret(t.gateway.masterKey, JSON.stringify(akbankCredentials(emulator))),
      settings: { environment: 'test', model: opts.model ?? '3d', api_url: emulator.apiUrl, gate_url: emulator.gateUrl, host_gate_url: emulator.hostGateUrl, timeout_ms: opts.timeoutMs ?? 60_000, lang: 'en' },
    },
  });
  await db.workspace.update({ where: { id: m.workspaceId }, data: { defaultPaymentAccountId: account.id } });
  await t.gateway.admission.synced();
  return { ...m, accountToken: account.id };
}

export type EmulatorOrder = Order & { charged: number; refunded: number };

/** The emulator's order for an order id, read over its control API as any client would. */
export async function akbankOrder(emulator: AkbankEmulator, orderId: string): Promise<EmulatorOrder | undefined> {
  const res = await fetch(`${emulator.url}/_emulator/state`);
  const state = (await res.json()) as { orders: EmulatorOrder[] };
  return state.orders.find((o) => o.orderId === orderId);
}

/** The order's transactions as "txnCode:responseCode:amount[:V]" (V: cancelled since). */
export async function txnsAt(emulator: AkbankEmulator, orderId: string): Promise<string[]> {
  const order = await akbankOrder(emulator, orderId);
  return order?.txns.map((x) => `${x.txnCode}:${x.responseCode}:${x.amount}${x.txnStatus === 'V' ? ':V' : ''}`) ?? [];
}

export async function setAkbankBehaviour(emulator: AkbankEmulator, rule: { mode: 'decline' | 'fail' | 'timeout' | 'slow'; count?: number; delayMs?: number }): Promise<void> {
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

const unescape = (s: string) => s.replace(/&amp;/g, '&');

/**
 * What a browser does with the bank form: the gate (in the 3D Host model, the bank's card page
 * filled with `card`), `decision` on the ACS page when it asks, the page posting the signed callback.
 */
export async function answerAkbankAcs(form: { action: string; fields: Record<string, string> }, decision: 'approve' | 'decline', card?: { creditCard: string; expiredDate: string; cvv: string }): Promise<{ callbackUrl: string; fields: Record<string, string> }> {
  const gate = await postForm(form.action, form.fields);
  if (gate.status !== 200) throw new Error(`the emulator's gate answered ${gate.status}: ${gate.html.slice(0, 300)}`);
  let page = gate.html;
  const cardAction = /<form id="akbank-card" method="post" action="([^"]+)">/.exec(page)?.[1];
  if (cardAction) {
    if (!card) throw new Error('the bank asks for the card and none was given');
    page = (await postForm(new URL(unescape(cardAction), form.action).href, card)).html;
  }
  const action = new RegExp(`<form method="post" action="([^"]+)">\\s*<input type="hidden" name="decision" value="${decision}">`).exec(page)?.[1];
  if (action) page = (await postForm(new URL(unescape(action), form.action).href, { decision })).html;
  const back = autoPostForm(page);
  if (!back) throw new Error(`the ACS answer page has no callback form: ${page.slice(0, 300)}`);
  return { callbackUrl: back.action, fields: back.fields };
}

/** The gateway's calls to Akbank so far, from its log (scrubbed exchanges), oldest first. */
export function akbankCalls(t: TestGateway, operation?: string): Array<{ operation: string } & Record<string, unknown>> {
  return t.logLines
    .map((line) => JSON.parse(line) as { msg?: string; operation: string })
    .filter((l) => l.msg === 'akbank-pos exchange' && (operation === undefined || l.operation === operation));
}
