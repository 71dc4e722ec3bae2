// The gateway moving money through iyzico, played by the repo's iyzico emulator (real HTTP on
// 127.0.0.1, nothing leaves the machine): one emulator per test file, a workspace whose default
// account is an iyzico account pointed at it, the emulator's own record of what it was asked, and
// the shopper's 3-D Secure step without a browser (iyzico's auto-posting page -> the emulator's
// ACS -> the signed callback form).
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startIyzicoEmulator, type IyzicoEmulator } from '../../emulators/iyzico/server.ts';
import type { Cancel as EmulatorCancel, Payment as EmulatorPayment, Refund as EmulatorRefund, StoredCard } from '../../emulators/iyzico/state.ts';
import type { BehaviourMode } from '../../emulators/iyzico/behaviour.ts';
import { encryptSecret } from '../../src/domain/secrets.ts';
import type { Currency } from '../../src/domain/money.ts';
import type { AccountCapabilities } from '../../src/domain/workspaces.ts';
import { seedWorkspace, type Merchant, type SeedOptions, type TestGateway } from './gateway.ts';
import { autoPostForm } from './payments.ts';

/** Sandbox cards (emulators/iyzico/cards.ts): approved, and each refusal the sandbox knows. */
export const IYZICO_CARDS = {
  approved: '5528790000000008',
  approvedVisa: '4603450000000000',
  debit: '5890040000000016',
  insufficientFunds: '4111111111111129',
  doNotHonour: '4129111111111111',
  invalidTransaction: '4128111111111112',
  lost: '4127111111111113',
  stolen: '4126111111111114',
  expired: '4125111111111115',
  invalidCvc: '4124111111111116',
  notPermittedToCardholder: '4123111111111117',
  notPermittedToTerminal: '4122111111111118',
  fraud: '4121111111111119',
  pickup: '4120111111111110',
  generalError: '4130111111111118',
  mdStatus0: '4131111111111117',
  mdStatus4: '4141111111111115',
  threeDsInitFails: '4151111111111112',
} as const;

export interface EmulatorFixture {
  emulator: IyzicoEmulator;
}

/** Starts an emulator before the file's tests (stopped after them); each test starts with no behaviour rules. */
export function useIyzicoEmulator(): EmulatorFixture {
  const fixture = {} as EmulatorFixture;
  beforeAll(async () => {
    fixture.emulator = await startIyzicoEmulator({ apiKey: 'sandbox-e2e-api-key', secretKey: 'sandbox-e2e-secret-key', port: 0 });
  });
  afterEach(() => fixture.emulator?.behaviour.clear());
  afterAll(() => fixture.emulator?.close());
  return fixture;
}

export interface IyzicoAccountOptions {
  timeoutMs?: number;
  currencies?: Currency[];
  capabilities?: AccountCapabilities;
  /** Make it the workspace's default account (default true). */
  isDefault?: boolean;
}

/** An iyzico payment account on the emulator, as the dashboard stores one: credentials encrypted, settings JSON. */
export async function addIyzicoAccount(t: TestGateway, workspaceId: string, emulator: IyzicoEmulator, opts: IyzicoAccountOptions = {}): Promise<string> {
  const db = t.gateway.services.db;
  const account = await db.paymentAccount.create({
    data: {
      workspaceId,
      name: 'iyzico',
      provider: 'iyzico',
      mode: 'test',
      currencies: opts.currencies ?? ['TRY', 'USD', 'EUR', 'GBP'],
      installmentRatesBp: [],
      credentials: encryptSecret(t.gateway.masterKey, JSON.stringify({ api_key: emulator.apiKey, secret_key: emulator.secretKey })),
      settings: { base_url: emulator.url, timeout_ms: opts.timeoutMs ?? 60_000 },
      ...opts.capabilities,
    },
  });
  if (opts.isDefault ?? true) await db.workspace.update({ where: { id: workspaceId }, data: { defaultPaymentAccountId: account.id } });
  await t.gateway.admission.synced();
  return account.id;
}

/** A workspace whose only account is an iyzico account on the emulator, made its default. */
export async function seedIyzicoMerchant(t: TestGateway, emulator: IyzicoEmulator, opts: IyzicoAccountOptions & Omit<SeedOptions, 'defaultAccount'> = {}): Promise<Merchant> {
  const m = await seedWorkspace(t, { ...opts, defaultAccount: false });
  // seedWorkspace always makes a simulator account; this workspace pays through iyzico only.
  await t.gateway.services.db.paymentAccount.update({ where: { id: m.accountToken }, data: { deletedAt: new Date() } });
  const accountToken = await addIyzicoAccount(t, m.workspaceId, emulator, opts);
  return { ...m, accountToken };
}

export interface EmulatorSnapshot {
  payments: EmulatorPayment[];
  refunds: EmulatorRefund[];
  cancels: EmulatorCancel[];
  cards: Array<Omit<StoredCard, 'outcome'>>;
}

/** What the emulator holds, read over its control API as any client would. */
export async function emulatorState(emulator: IyzicoEmulator): Promise<EmulatorSnapshot> {
  const res = await fetch(`${emulator.url}/_emulator/state`);
  if (res.status !== 200) throw new Error(`emulator state answered ${res.status}`);
  return (await res.json()) as EmulatorSnapshot;
}

/** The emulator's payments made under a conversationId (the gateway's idempotency key of the call). */
export async function emulatorPayments(emulator: IyzicoEmulator, conversationId: string): Promise<EmulatorPayment[]> {
  return (await emulatorState(emulator)).payments.filter((p) => p.conversationId === conversationId);
}

/** Sets what the next calls do (decline, fail, timeout, slow), over the control API. */
export async function setBehaviour(emulator: IyzicoEmulator, rule: { mode: BehaviourMode; count?: number; delayMs?: number }): Promise<void> {
  const res = await fetch(`${emulator.url}/_emulator/behaviour`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rule) });
  if (res.status !== 200) throw new Error(`emulator behaviour answered ${res.status}: ${await res.text()}`);
}

/** iyzico's 3D page for a started payment, as the gateway keeps it (what the redirect address serves). */
export async function threeDsHtmlOf(t: TestGateway, paymentId: string): Promise<string> {
  const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
  const redirect = row.threeDsRedirect as { kind?: string; html?: string } | null;
  if (redirect?.kind !== 'html' || !redirect.html) throw new Error(`payment ${paymentId} has no iyzico 3D page`);
  return redirect.html;
}

async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; html: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  return { status: res.status, html: await res.text() };
}

/**
 * What a browser does with iyzico's 3D page: its form posts on to the emulator's ACS, the shopper
 * presses `decision` there, and the ACS answers a page that posts the signed callback form.
 * Returns that form: where it posts (the gateway's callback address) and its fields.
 */
export async function answerIyzicoAcs(html: string, decision: 'approve' | 'decline'): Promise<{ callbackUrl: string; fields: Record<string, string> }> {
  const toAcs = autoPostForm(html);
  if (!toAcs) throw new Error('iyzico page without its auto-posting form');
  const challenge = await postForm(toAcs.action, toAcs.fields);
  if (challenge.status !== 200) throw new Error(`the emulator's ACS answered ${challenge.status}`);
  const token = /name="token" value="([^"]+)"/.exec(challenge.html)?.[1];
  const action = /<form method="post" action="([^"]+)">/.exec(challenge.html)?.[1];
  if (!token || !action) throw new Error('ACS page without its answer form');
  const answered = await postForm(new URL(action, toAcs.action).href, { token, decision });
  const back = autoPostForm(answered.html);
  if (answered.status !== 200 || !back) throw new Error(`the ACS answer page (${answered.status}) has no callback form`);
  return { callbackUrl: back.action, fields: back.fields };
}

export interface LoggedExchange {
  operation: string;
  path: string;
  request: Record<string, unknown>;
  outcome: string;
  httpStatus: number | null;
  response: Record<string, unknown> | null;
}

/** The gateway's calls to iyzico so far, from its log (the connector logs each exchange, scrubbed), oldest first. */
export function iyzicoCalls(t: TestGateway, operation?: string): LoggedExchange[] {
  return t.logLines
    .map((line) => JSON.parse(line) as { msg?: string } & LoggedExchange)
    .filter((l) => l.msg === 'iyzico exchange' && (operation === undefined || l.operation === operation));
}
