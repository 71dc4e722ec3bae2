// A bank virtual POS account in a test gateway, the same way for every bank: the account as the
// dashboard stores it (credentials encrypted with the master key, settings JSON), a workspace that
// pays through it only, and the bank exchanges the connector logged (scrubbed). Beside it, what
// every bank's emulator is driven by alike: one emulator per test file, its controls and books
// over its HTTP API as any client would, and the shopper's trip through its gate and ACS without
// a browser (the gateway's bank form -> the gate -> the ACS -> the page posting the callback).
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Currency } from '../../src/domain/money.ts';
import { encryptSecret } from '../../src/domain/secrets.ts';
import { seedWorkspace, type Merchant, type SeedOptions, type TestGateway } from './gateway.ts';
import { autoPostForm, paymentBody, postCallback } from './payments.ts';
import { eventsOf } from './rows.ts';

export interface BankAccount {
  provider: string;
  name: string;
  credentials: Record<string, string>;
  settings: Record<string, unknown>;
  installmentRatesBp?: number[];
  /** TRY, USD and EUR unless given. */
  currencies?: Currency[];
  /** Made the workspace's default (true unless false). */
  isDefault?: boolean;
}

export async function addBankAccount(t: TestGateway, workspaceId: string, account: BankAccount): Promise<string> {
  const db = t.gateway.services.db;
  const row = await db.paymentAccount.create({
    data: {
      workspaceId,
      name: account.name,
      provider: account.provider,
      mode: 'test',
      currencies: account.currencies ?? ['TRY', 'USD', 'EUR'],
      installmentRatesBp: account.installmentRatesBp ?? [],
      credentials: encryptSecret(t.gateway.masterKey, JSON.stringify(account.credentials)),
      settings: account.settings as object,
    },
  });
  if (account.isDefault ?? true) await db.workspace.update({ where: { id: workspaceId }, data: { defaultPaymentAccountId: row.id } });
  await t.gateway.admission.synced();
  return row.id;
}

/** A workspace whose only account is the bank account, made its default. */
export async function seedBankMerchant(t: TestGateway, account: BankAccount, opts: Omit<SeedOptions, 'defaultAccount'> = {}): Promise<Merchant> {
  const m = await seedWorkspace(t, { ...opts, defaultAccount: false });
  // seedWorkspace always makes a simulator account; this workspace pays through the bank only.
  await t.gateway.services.db.paymentAccount.update({ where: { id: m.accountToken }, data: { deletedAt: new Date() } });
  return { ...m, accountToken: await addBankAccount(t, m.workspaceId, account) };
}

/** The gateway's logged exchanges with a bank (`<provider> exchange`, scrubbed), oldest first. */
export function bankCalls(t: TestGateway, provider: string, operation?: string): Array<{ operation: string } & Record<string, unknown>> {
  return t.logLines
    .map((line) => JSON.parse(line) as { msg?: string; operation: string } & Record<string, unknown>)
    .filter((l) => l.msg === `${provider} exchange` && (operation === undefined || l.operation === operation));
}

/** What a test holds of a running bank emulator: its address, its control rules, its stop. */
export interface RunningBankEmulator {
  url: string;
  behaviour: { clear(): void };
  stop(): Promise<void>;
}

/** Starts an emulator before the file's tests (stopped after them); each test starts with no behaviour rules. */
export function useBankEmulator<E extends RunningBankEmulator>(start: (options: { port: number }) => Promise<E>): { emulator: E } {
  const fixture = {} as { emulator: E };
  beforeAll(async () => {
    fixture.emulator = await start({ port: 0 });
  });
  afterEach(() => fixture.emulator?.behaviour.clear());
  afterAll(() => fixture.emulator?.stop());
  return fixture;
}

/** A control rule for the next calls (emulators/bank/server.ts). */
export interface BankBehaviourRule {
  mode: 'decline' | 'fail' | 'timeout' | 'slow';
  count?: number;
  delayMs?: number;
}

/** Sets what the next calls do (decline, fail, timeout, slow), over the control API. */
export async function setBankBehaviour(emulator: { url: string }, rule: BankBehaviourRule): Promise<void> {
  const res = await fetch(`${emulator.url}/_emulator/behaviour`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rule) });
  if (res.status !== 200) throw new Error(`emulator behaviour answered ${res.status}: ${await res.text()}`);
}

/** What the emulator holds (its books' snapshot), read over its control API as any client would. */
export async function bankState<State>(emulator: { url: string }): Promise<State> {
  const res = await fetch(`${emulator.url}/_emulator/state`);
  if (res.status !== 200) throw new Error(`emulator state answered ${res.status}`);
  return (await res.json()) as State;
}

/** Posts a form as a browser does (no redirect followed); the status and the page. */
export async function postBankForm(url: string, fields: Record<string, string>): Promise<{ status: number; html: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  return { status: res.status, html: await res.text() };
}

/** The bank form the gateway's redirect address answers (id "bank"), card fields joined in. */
export async function bankFormOf(redirectUrl: string): Promise<{ action: string; fields: Record<string, string> }> {
  const page = await fetch(redirectUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`the redirect address answered ${page.status}: ${html.slice(0, 200)}`);
  const form = autoPostForm(html);
  if (form?.id !== 'bank') throw new Error(`the redirect page has no bank form: ${html.slice(0, 200)}`);
  return form;
}

const unescapeAction = (action: string) => action.replace(/&amp;/g, '&');

/**
 * What a browser does with the bank form: posts it to the gate; on a bank's own card page (the
 * 3D Host models: a form whose id ends in "-card") types `card`; presses `decision` on the ACS
 * page (a card whose ACS answers without a challenge skips it); reads the page that posts the
 * signed callback. Returns that form: where it posts (the gateway's callback address), its fields.
 */
export async function answerBankAcs(form: { action: string; fields: Record<string, string> }, decision: 'approve' | 'decline', card?: Record<string, string>): Promise<{ callbackUrl: string; fields: Record<string, string> }> {
  const at = (action: string) => new URL(unescapeAction(action), form.action).href;
  let page = await postBankForm(form.action, form.fields);
  if (page.status !== 200) throw new Error(`the emulator's gate answered ${page.status}: ${page.html.slice(0, 300)}`);
  const cardAction = /<form id="[\w-]+-card" method="post" action="([^"]+)">/.exec(page.html)?.[1];
  if (cardAction) {
    if (!card) throw new Error('the bank asks for the card and none was given');
    page = await postBankForm(at(cardAction), card);
    if (page.status !== 200) throw new Error(`the bank's card page answered ${page.status}: ${page.html.slice(0, 300)}`);
  }
  const acs = new RegExp(`<form method="post" action="([^"]+)">\\s*<input type="hidden" name="decision" value="${decision}">`).exec(page.html)?.[1];
  if (acs) {
    page = await postBankForm(at(acs), { decision });
    if (page.status !== 200) throw new Error(`the ACS answered ${page.status}: ${page.html.slice(0, 300)}`);
  }
  const back = autoPostForm(page.html);
  if (!back) throw new Error(`the ACS answer page has no callback form: ${page.html.slice(0, 300)}`);
  return { callbackUrl: back.action, fields: back.fields };
}

/** The emulator's order for an order id, from its books' `orders` read over the control API. */
export async function bankOrder<Order extends { orderId: string }>(emulator: { url: string }, orderId: string): Promise<Order | undefined> {
  return (await bankState<{ orders: Order[] }>(emulator)).orders.find((o) => o.orderId === orderId);
}

/**
 * The calls a bank's payment tests make through the gateway, for a merchant seeded on first use:
 * a regular payment (card `approved` unless given, with a channel reference `<prefix>-<n>`),
 * one that must succeed (its token), a refund and a cancel a second apart on the test clock,
 * and the payment's row.
 */
export function bankPaymentCalls(t: TestGateway, seed: () => Promise<Merchant>, cards: { approved: string; prefix: string }) {
  let merchant: Merchant | undefined;
  let reference = 1;
  const m = async () => (merchant ??= await seed());
  const tick = () => t.clock.advance(1000);
  const pay = async (number: string = cards.approved, amount = '100.00') =>
    (await m()).call('regular-payment', paymentBody(await m(), { card: { number, security_code: '321' }, transaction: { channel_reference: `${cards.prefix}-${reference++}`, amount } }));
  return {
    merchant: m,
    pay,
    async paid(number?: string): Promise<string> {
      const res = await pay(number);
      expect(res.body.result, res.text).toEqual({ successful: true, message: null });
      return res.body.transaction.token as string;
    },
    tick,
    refund: async (token: string, amount?: string) => (tick(), (await m()).call('refund-payment', amount === undefined ? { transaction: { token } } : { transaction: { token }, amount })),
    cancel: async (token: string) => (tick(), (await m()).call('cancel-payment', { transaction: { token } })),
    row: (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } }),
  };
}

/**
 * What a bank's 3-D tests read through the gateway: a payment's row, its callback address, its
 * retrieve-payment result, its row and events as they stand (to show a refused callback wrote
 * nothing), and a callback the gateway must refuse (a 4xx page without a transaction_token).
 */
export function bankThreeDsReads(t: TestGateway) {
  const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
  const stringify = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  return {
    row,
    stringify,
    callbackOf: (id: string) => `${t.gateway.baseUrl}/checkout/3ds/callback/${id}`,
    retrieve: async (m: Merchant, token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result,
    snapshot: async (id: string) => ({ row: stringify(await row(id)), events: await eventsOf(t, id) }),
    async expectRefused(url: string, fields: Record<string, string>): Promise<void> {
      const res = await postCallback(url, fields);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.html).not.toContain('transaction_token');
    },
  };
}
