// A payment attempt answers with the view of the payment it just settled (or left waiting for its
// 3D page), built from the rows it already holds instead of reading it again
// (src/domain/payments/attempt.ts, rowView). That view must be exactly what a fresh read gives,
// whatever the outcome and owner.
import { describe, expect, it } from 'vitest';
import { regularPayment, securePayment } from '../../src/domain/payments/start.ts';
import { loadPaymentView } from '../../src/domain/payments/view.ts';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import type { Merchant } from '../helpers/gateway.ts';

const { t, merchant: m } = useGateway({ merchant: true });
let reference = 0;

/** The request body in the shape the domain takes (GraphQL's camelCase input). */
function input(merchant: Merchant, card: string, over: { shouldSave?: boolean; expiryYear?: string } = {}) {
  const body = paymentBody(merchant, { transaction: { channel_reference: `VIEW-${reference++}` }, card: { number: card, ...(over.expiryYear ? { expiry_year: over.expiryYear } : {}) } }) as {
    transaction: Record<string, unknown>;
    card: Record<string, unknown>;
    customer: Record<string, unknown>;
  };
  const camel = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/_(.)/g, (_m, c: string) => c.toUpperCase()), v]));
  return { transaction: camel(body.transaction), card: { ...camel(body.card), ...(over.shouldSave ? { shouldSave: true } : {}) }, customer: camel(body.customer) };
}

async function workspace() {
  return t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
}

describe('the view a payment attempt answers with equals a fresh read of the payment', () => {
  it.each([
    ['approved', CARDS.approved],
    ['declined', CARDS.insufficientFunds],
    ['left unresolved by a bank timeout', CARDS.timeout],
  ])('regular payment, %s', async (_name, card) => {
    const result = await regularPayment(t.gateway.services, await workspace(), input(m, card));
    expect(result.view).toEqual(await loadPaymentView(t.gateway.services.db, result.view.id));
  });

  it('regular payment whose card is saved (the view is read again for the stored card)', async () => {
    const result = await regularPayment(t.gateway.services, await workspace(), input(m, CARDS.approved, { shouldSave: true }));
    expect(result.view.storedCard).not.toBeNull();
    expect(result.view).toEqual(await loadPaymentView(t.gateway.services.db, result.view.id));
  });

  it.each([
    ['', false],
    [' whose card is to be saved', true],
  ])('secure payment waiting for its 3D page%s', async (_name, shouldSave) => {
    const raw = input(m, CARDS.approved, { shouldSave });
    const result = await securePayment(t.gateway.services, await workspace(), { ...raw, transaction: { ...raw.transaction, callbackUrl: 'https://shop.example/back' } });
    expect(result.redirectUrl).toMatch(/\/checkout\/3ds\//);
    expect(result.view.status).toBe('started');
    const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: result.view.id } });
    expect(row.threeDsToken).not.toBeNull();
    expect(row.pendingCardReference === null).toBe(!shouldSave);
    expect(result.view).toEqual(await loadPaymentView(t.gateway.services.db, result.view.id));
  });

  it('secure payment refused before the 3D step (an expired card)', async () => {
    const raw = input(m, CARDS.approved, { expiryYear: '2020' });
    const result = await securePayment(t.gateway.services, await workspace(), { ...raw, transaction: { ...raw.transaction, callbackUrl: 'https://shop.example/back' } });
    expect(result.successful).toBe(false);
    expect(result.view).toEqual(await loadPaymentView(t.gateway.services.db, result.view.id));
  });
});
