// The contract every bank virtual POS connector and its emulator pass together (EST, Garanti BBVA,
// Yapı Kredi PosNet...): real HTTP on 127.0.0.1, the connector built as the catalog builds it,
// the shopper's 3-D trip walked without a browser (gate -> ACS -> the callback form). A bank's
// test/<bank>/contract.test.ts gives its emulator, its connector and its test cards; what is
// checked is the same for all: payments (3-D and not), refunds (partial and full), cancels, the
// inquiries after a lost answer, forged and altered callbacks refused, no card data logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardData, Connector, Redirect } from '../../src/providers/types.ts';
import { autoPostForm } from './payments.ts';

export interface BankUnderTest<E> {
  name: string;
  start(): Promise<E & { stop(): Promise<void> }>;
  /** The connector for an account on the emulator; `log` gets its exchanges. */
  connect(emulator: E, log: (fields: Record<string, unknown>) => void): Connector;
  cards: { approved: CardData; declined: CardData; notAuthenticated: CardData };
}

/** What a browser does with a bank's gate form: post it, answer the ACS, read the form it posts back. */
export async function walkGate(redirect: Redirect, decision: 'approve' | 'decline' = 'approve'): Promise<Record<string, string>> {
  if (redirect.kind !== 'form') throw new Error(`expected a gate form, got ${redirect.kind}`);
  let res = await post(redirect.action, { ...redirect.fields, ...redirect.cardFields });
  let base = redirect.action;
  if (res.status === 303) {
    base = new URL(res.headers.get('location')!, base).href;
    res = await fetch(base);
  }
  let html = await res.text();
  if (res.status !== 200) throw new Error(`the gate answered ${res.status}: ${html.slice(0, 300)}`);
  const acs = new RegExp(`<form method="post" action="([^"]+)">\\s*<input type="hidden" name="decision" value="${decision}">`).exec(html)?.[1];
  if (acs) {
    const answered = await post(new URL(acs.replace(/&amp;/g, '&'), base).href, { decision });
    html = await answered.text();
  }
  const back = autoPostForm(html);
  if (!back) throw new Error(`no callback form: ${html.slice(0, 300)}`);
  return back.fields;
}

const post = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

/** A payment id as the gateway makes them (the bank's order id is derived from it). */
const paymentKey = (step: string) => `${crypto.randomUUID()}:${step}`;

export function bankContract<E>(bank: BankUnderTest<E>): void {
  describe(`${bank.name}: the bank POS contract`, () => {
    let emulator: E & { stop(): Promise<void> };
    let connector: Connector;
    const logged: Array<Record<string, unknown>> = [];
    beforeAll(async () => {
      emulator = await bank.start();
      connector = bank.connect(emulator, (fields) => logged.push(fields));
    });
    afterAll(() => emulator?.stop());

    const payment = (card: CardData, amount = 10025n) => ({ idempotencyKey: paymentKey('charge'), amount, currency: 'TRY' as const, installmentNumber: 1, card });

    async function threeDs(card: CardData, decision: 'approve' | 'decline' = 'approve') {
      const input = { ...payment(card), idempotencyKey: paymentKey('authorise'), callbackUrl: 'https://gateway.example/checkout/3ds/callback/p1' };
      const started = await connector.start3D(input);
      if (started.status !== 'redirect') throw new Error(`start3D: ${JSON.stringify(started)}`);
      const fields = await walkGate(started.redirect, decision);
      const threeDsPayment = { startKey: input.idempotencyKey, providerReference: started.providerReference, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber };
      return { started, fields, threeDsPayment };
    }

    it('charges a card without 3-D Secure, and the inquiry after a lost answer finds the sale', async () => {
      const input = payment(bank.cards.approved);
      const charged = await connector.charge(input);
      expect(charged.status).toBe('succeeded');
      const status = await connector.paymentStatus({ idempotencyKey: input.idempotencyKey, providerReference: null, amount: input.amount, currency: 'TRY' });
      expect(status).toEqual(charged);
    });

    it("declines the issuer's refusal with a gateway error code and the bank's own", async () => {
      const declined = await connector.charge(payment(bank.cards.declined));
      expect(declined.status).toBe('declined');
      if (declined.status !== 'declined') return;
      expect(declined.code).toMatch(/^[a-z_0-9]+$/);
      expect(declined.providerCode).toBeTruthy();
    });

    it('finds nothing for an order the bank never received', async () => {
      const status = await connector.paymentStatus({ idempotencyKey: paymentKey('charge'), providerReference: null, amount: 100n, currency: 'TRY' });
      expect(status).toEqual({ status: 'unknown' });
    });

    it('takes a 3-D payment: gate, ACS, verified callback, completion', async () => {
      const { fields, threeDsPayment } = await threeDs(bank.cards.approved);
      const checked = await connector.verifyCallback(threeDsPayment, fields);
      expect(checked).toMatchObject({ status: 'verified', authenticated: true });
      if (checked.status !== 'verified' || !checked.authenticated) return;
      const completed = await connector.complete3D({ idempotencyKey: 'p1:complete', payment: threeDsPayment, data: checked.data });
      expect(completed.status).toBe('succeeded');
    });

    it('fails a 3-D payment whose shopper the ACS did not authenticate, without a charge', async () => {
      const { fields, threeDsPayment } = await threeDs(bank.cards.approved, 'decline');
      const checked = await connector.verifyCallback(threeDsPayment, fields);
      expect(checked).toMatchObject({ status: 'verified', authenticated: false, failure: { status: 'declined', code: '3ds_failed' } });
    });

    it("fails a 3-D payment of a card whose issuer's ACS answers not authenticated", async () => {
      const { fields, threeDsPayment } = await threeDs(bank.cards.notAuthenticated);
      const checked = await connector.verifyCallback(threeDsPayment, fields);
      expect(checked).toMatchObject({ status: 'verified', authenticated: false, failure: { status: 'declined', code: '3ds_failed' } });
    });

    it('refuses a forged, an altered and a foreign callback', async () => {
      const { fields, threeDsPayment } = await threeDs(bank.cards.approved);
      const altered = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.length > 8 ? `${v.slice(0, -4)}AAAA` : v]));
      expect(await connector.verifyCallback(threeDsPayment, altered)).toMatchObject({ status: 'rejected' });
      expect(await connector.verifyCallback(threeDsPayment, { mdStatus: '1', mdstatus: '1', approved: '1' })).toMatchObject({ status: 'rejected' });
      const other = await threeDs(bank.cards.approved);
      expect(await connector.verifyCallback(threeDsPayment, other.fields)).toMatchObject({ status: 'rejected' });
    });

    it('refunds part then the rest; a lost refund is found in the history, one never received is unknown', async () => {
      const input = payment(bank.cards.approved, 10000n);
      const charged = await connector.charge(input);
      if (charged.status !== 'succeeded') throw new Error(JSON.stringify(charged));
      const ref = charged.providerReference;
      expect(await connector.refund({ idempotencyKey: 'refund:r1', providerReference: ref, amount: 4000n, currency: 'TRY' })).toMatchObject({ status: 'succeeded' });
      const lost = await connector.refundStatus({ idempotencyKey: 'refund:r1', providerReference: ref, amount: 4000n, currency: 'TRY', otherRefunds: [] });
      expect(lost.status).toBe('succeeded');
      expect(await connector.refund({ idempotencyKey: 'refund:r2', providerReference: ref, amount: 6000n, currency: 'TRY' })).toMatchObject({ status: 'succeeded' });
      const over = await connector.refund({ idempotencyKey: 'refund:r3', providerReference: ref, amount: 1n, currency: 'TRY' });
      expect(over.status).not.toBe('succeeded');
      const done = [
        { amount: 4000n, status: 'succeeded' as const },
        { amount: 6000n, status: 'succeeded' as const },
      ];
      const neverSent = await connector.refundStatus({ idempotencyKey: 'refund:r4', providerReference: ref, amount: 500n, currency: 'TRY', otherRefunds: done });
      expect(neverSent).toEqual({ status: 'unknown' });
    });

    it('cancels a sale; a lost cancel is found in the history', async () => {
      const charged = await connector.charge(payment(bank.cards.approved));
      if (charged.status !== 'succeeded') throw new Error(JSON.stringify(charged));
      expect(await connector.cancel({ idempotencyKey: 'cancel:c1', providerReference: charged.providerReference })).toMatchObject({ status: 'succeeded' });
      const lost = await connector.refundStatus({ idempotencyKey: 'cancel:c1', providerReference: charged.providerReference });
      expect(lost.status).toBe('succeeded');
    });

    it('logs no card number, expiry or security code', () => {
      expect(logged.length).toBeGreaterThan(5);
      const text = JSON.stringify(logged);
      for (const card of Object.values(bank.cards)) {
        expect(text).not.toContain(card.number);
        if (card.securityCode) expect(text).not.toMatch(new RegExp(`"(cvc|cvv2?|Cvv2Val|CVV2|cv2)":"${card.securityCode}"`, 'i'));
      }
    });
  });
}
