// retrieve-payment-links: the three ways of selecting (and their 422s), 7-day inclusive ranges in
// the workspace time zone, the empty body, oldest to newest, and isolation between workspaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message, type MessageCode } from '../../src/domain/messages.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';

let t: TestGateway;
let m: Merchant;
let other: Merchant;
const ts = { form: 'timestamp' as const, get timestamp() { return Math.floor(t.clock.now().getTime() / 1000); } };
const link = (reference?: string) => ({ payment_link: { currency: 'TRY', items: [{ name: 'Çay', unit_amount: '10.00' }], ...(reference ? { reference } : {}) } });

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t);
  other = await seedWorkspace(t);
});
afterAll(() => t?.stop());

async function createAt(merchant: Merchant, iso: string, reference?: string): Promise<string> {
  t.clock.set(iso);
  const res = await merchant.call('create-payment-link', link(reference), ts);
  expect(res.status).toBe(200);
  return res.body.payment_link.token;
}

describe('selection', () => {
  it('by date range: inclusive days in Europe/Istanbul, oldest to newest, this workspace only', async () => {
    // 2026-05-01 00:30 in Istanbul is 2026-04-30 21:30 UTC.
    const first = await createAt(m, '2026-04-30T21:30:00Z');
    const second = await createAt(m, '2026-05-07T20:59:00Z');
    await createAt(m, '2026-05-07T21:00:00Z'); // 2026-05-08 in Istanbul: outside
    await createAt(other, '2026-05-03T10:00:00Z');
    t.clock.set('2026-05-10T10:00:00Z');
    const res = await m.call('retrieve-payment-links', { created_from: '2026-05-01', created_to: '2026-05-07' }, ts);
    expect(res.status).toBe(200);
    expect(res.body.created_from).toBe('2026-05-01');
    expect(res.body.created_to).toBe('2026-05-07');
    expect(res.body.payment_links.map((l: { token: string }) => l.token)).toEqual([first, second]);
    expect(res.body.payment_links[0]).toMatchObject({ transactions_count: 0, transactions: [] });
  });

  it('an empty body lists the last 7 days including today, with the dates echoed', async () => {
    const today = await createAt(m, '2026-06-10T09:00:00Z');
    const sixDaysAgo = await createAt(m, '2026-06-04T09:00:00Z');
    await createAt(m, '2026-06-03T09:00:00Z');
    t.clock.set('2026-06-10T12:00:00Z');
    const res = await m.call('retrieve-payment-links', {}, ts);
    expect(res.body).toMatchObject({ created_from: '2026-06-04', created_to: '2026-06-10' });
    expect(res.body.payment_links.map((l: { token: string }) => l.token)).toEqual([sixDaysAgo, today]);
  });

  it('by reference: every link opened with it, no dates in the answer; by token: that link', async () => {
    const a = await createAt(m, '2026-07-01T09:00:00Z', 'INV-77');
    const b = await createAt(m, '2026-07-20T09:00:00Z', 'INV-77');
    await createAt(other, '2026-07-20T09:00:00Z', 'INV-77');
    const byRef = await m.call('retrieve-payment-links', { reference: 'INV-77' }, ts);
    expect(Object.keys(byRef.body)).toEqual(['result', 'payment_links']);
    expect(byRef.body.payment_links.map((l: { token: string }) => l.token)).toEqual([a, b]);
    const byToken = await m.call('retrieve-payment-links', { token: b }, ts);
    expect(byToken.body.payment_links.map((l: { token: string }) => l.token)).toEqual([b]);
    const foreign = await other.call('retrieve-payment-links', { token: b }, ts);
    expect(foreign.body.payment_links).toEqual([]);
  });
});

describe('validation rows (contract: Errors)', () => {
  const rows: Array<[string, Record<string, unknown>, string, MessageCode]> = [
    ['token with reference', { token: '00000000-0000-4000-8000-000000000000', reference: 'A1' }, 'token', 'token_not_combinable'],
    ['token with dates', { token: '00000000-0000-4000-8000-000000000000', created_from: '2026-01-01', created_to: '2026-01-02' }, 'token', 'token_not_combinable'],
    ['reference with dates', { reference: 'A1', created_from: '2026-01-01', created_to: '2026-01-02' }, 'reference', 'not_with_dates'],
    ['created_to before created_from', { created_from: '2026-01-05', created_to: '2026-01-04' }, 'created_to', 'date_range_order'],
    ['a range of 8 days', { created_from: '2026-01-01', created_to: '2026-01-08' }, 'created_to', 'date_range_too_long'],
    ['created_from alone', { created_from: '2026-01-01' }, 'created_to', 'dates_together'],
    ['a malformed token', { token: 'abc' }, 'token', 'invalid_uuid'],
  ];
  for (const [name, body, path, code] of rows) {
    it(`${name}: 422 on ${path}`, async () => {
      const res = await m.call('retrieve-payment-links', body, ts);
      expect(res.status).toBe(422);
      expect(res.body.errors[path]).toEqual([message(code)]);
    });
  }

  it('exactly 7 days is accepted', async () => {
    const res = await m.call('retrieve-payment-links', { created_from: '2026-01-01', created_to: '2026-01-07' }, ts);
    expect(res.status).toBe(200);
  });
});
