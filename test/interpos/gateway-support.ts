// The gateway moving money through InterPOS, played by the emulator (real HTTP on 127.0.0.1): a
// workspace whose only account is an InterPOS account on it (credentials encrypted as the
// dashboard stores them), the emulator's books, and the shopper's trip without a browser.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startInterPosEmulator, type InterPosEmulator } from '../../emulators/interpos/server.ts';
import { encryptSecret } from '../../src/domain/secrets.ts';
import type { InterPosModel } from '../../src/providers/interpos/settings.ts';
import { seedWorkspace, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { autoPostForm } from '../helpers/payments.ts';
import { interPosCredentials, interPosSettings } from './fixtures.ts';

export function useInterPosEmulator(): { emulator: InterPosEmulator } {
  const fixture = {} as { emulator: InterPosEmulator };
  beforeAll(async () => {
    fixture.emulator = await startInterPosEmulator({ port: 0 });
  });
  afterEach(() => fixture.emulator?.behaviour.clear());
  afterAll(() => fixture.emulator?.stop());
  return fixture;
}

/** A workspace whose only account (its default) is an InterPOS account on the emulator. */
export async function seedInterPosMerchant(t: TestGateway, emulator: InterPosEmulator, model: InterPosModel = '3d', settings: Record<string, unknown> = {}): Promise<Merchant> {
  const m = await seedWorkspace(t, { defaultAccount: false });
  const db = t.gateway.services.db;
  await db.paymentAccount.update({ where: { id: m.accountToken }, data: { deletedAt: new Date() } });
  const account = await db.paymentAccount.create({
    data: {
      workspaceId: m.workspaceId,
      name: 'Denizbank InterPOS',
      provider: 'interpos',
      mode: 'test',
      currencies: ['TRY', 'USD', 'EUR'],
      installmentRatesBp: [],
      credentials: encryptSecret(t.gateway.masterKey, JSON.stringify(interPosCredentials(emulator))),
      settings: { ...interPosSettings(emulator, model), lang: 'en', ...settings },
    },
  });
  await db.workspace.update({ where: { id: m.workspaceId }, data: { defaultPaymentAccountId: account.id } });
  await t.gateway.admission.synced();
  return { ...m, accountToken: account.id };
}

const post = async (url: string, fields: Record<string, string>) => {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  return { status: res.status, html: await res.text() };
};

/** The bank form the gateway's redirect address answers (id "bank"), card fields joined in. */
export async function bankFormOf(redirectUrl: string): Promise<{ action: string; fields: Record<string, string> }> {
  const page = await fetch(redirectUrl);
  const form = autoPostForm(await page.text());
  if (page.status !== 200 || form?.id !== 'bank') throw new Error(`the redirect address answered ${page.status} without a bank form`);
  return form;
}

/**
 * What a browser does with the bank form: posts it to InterPOS (for 3D Host, then types `card` on
 * its page), presses `decision` on the ACS (a card whose ACS answers without a challenge skips it)
 * and reads the page that posts the signed callback: where it posts and its fields.
 */
export async function answerInterPos(form: { action: string; fields: Record<string, string> }, decision: 'approve' | 'decline', card?: Record<string, string>): Promise<{ callbackUrl: string; fields: Record<string, string> }> {
  let page = await post(form.action, form.fields);
  const cardAction = /<form id="interpos-card" method="post" action="([^"]+)">/.exec(page.html)?.[1];
  if (cardAction && card) page = await post(cardAction.replace(/&amp;/g, '&'), card);
  if (page.status !== 200) throw new Error(`InterPOS answered ${page.status}: ${page.html.slice(0, 300)}`);
  const acs = new RegExp(`<form method="post" action="([^"]+)">\\s*<input type="hidden" name="decision" value="${decision}">`).exec(page.html)?.[1];
  if (acs) page = await post(acs.replace(/&amp;/g, '&'), { decision });
  const back = autoPostForm(page.html);
  if (!back) throw new Error('no callback form');
  return { callbackUrl: back.action, fields: back.fields };
}

/** The gateway's calls to InterPOS so far, from its log (scrubbed exchanges). */
export function interPosCalls(t: TestGateway, operation?: string): Array<Record<string, unknown>> {
  return t.logLines
    .map((line) => JSON.parse(line) as { msg?: string; operation?: string })
    .filter((l) => l.msg === 'interpos exchange' && (operation === undefined || l.operation === operation));
}
