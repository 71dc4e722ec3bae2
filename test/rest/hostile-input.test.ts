// Hostile input as an attacker sends it, correctly signed: every answer is a clear
// 4xx on the offending field, never a 500, and a rejected request writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { setUnknownKeys } from '../../src/domain/workspaces.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { rowCounts } from '../helpers/rows.ts';
import { asOwner } from '../helpers/db.ts';
import { message } from '../../src/domain/messages.ts';
import { BODY_LIMITS } from '../../src/rest/limits.ts';

let t: TestGateway;
let m: Merchant;
/** A workspace that ignores unknown keys. */
let lenient: Merchant;

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t);
  lenient = await seedWorkspace(t);
  await setUnknownKeys(t.gateway.services.db, lenient.team, 'ignore');
});
afterAll(() => t?.stop());

async function productCount() {
  return t.gateway.services.db.product.count();
}

async function expectRejected(operation: string, body: unknown, status: number, path: string | null, text: string) {
  const before = { ...(await rowCounts(t)), products: await productCount() };
  const res = await m.call(operation, body);
  expect(res.status).toBe(status);
  expect(res.body.result).toEqual({ successful: false, message: text });
  if (path) expect(res.body.errors[path]).toEqual([text]);
  else expect(res.body.errors).toEqual({});
  expect({ ...(await rowCounts(t)), products: await productCount() }).toEqual(before);
  return res;
}

const BAD_TEXT: Array<[string, string]> = [
  ['a NUL character', 'a\u0000b'],
  ['a lone high surrogate', '\ud83d'],
  ['reversed surrogates', '\udfff\ud800'],
];

describe('strings PostgreSQL cannot store', () => {
  for (const [name, bad] of BAD_TEXT) {
    it(`${name} in a customer field of regular-payment is a 422 on that field`, async () => {
      await expectRejected('regular-payment', paymentBody(m, { customer: { firstname: bad } }), 422, 'customer.firstname', message('text_invalid_characters'));
    });

    it(`${name} in transaction.channel_reference is a 422 on that field`, async () => {
      await expectRejected('secure-payment', paymentBody(m, { transaction: { channel_reference: `R1${bad}` } }), 422, 'transaction.channel_reference', message('text_invalid_characters'));
    });

    it(`${name} in card.holder_name is a 422 on that field`, async () => {
      await expectRejected('regular-payment', paymentBody(m, { card: { holder_name: bad } }), 422, 'card.holder_name', message('text_invalid_characters'));
    });

    it(`${name} in a product name is a 422 on that field`, async () => {
      const product = { channel_token: m.channelToken, channel_reference: 'P-1', name: bad, type: 'simple', amount: '10.00', tax_rate: '18' };
      await expectRejected('save-product', { product }, 422, 'product.name', message('text_invalid_characters'));
    });

    it(`${name} in an order item name is a 422 on that item's field`, async () => {
      const order = { channel_token: m.channelToken, channel_reference: 'O-1', success_url: 'http://127.0.0.1:9/ok', items: [{ channel_reference: 'X-1', name: bad, unit_amount: '10.00' }] };
      await expectRejected('order-payment', { order, customer: { channel_reference: 'C-1' } }, 422, 'order.items.0.name', message('text_invalid_characters'));
    });

    it(`${name} in a searched reference (retrieve-payments) is a 422, not a database error`, async () => {
      await expectRejected('retrieve-payments', { channel_reference: bad }, 422, 'channel_reference', message('text_invalid_characters'));
    });
  }
});

describe('amounts beyond the documented ceiling (10,000,000.00 for card payments)', () => {
  const tooLarge = message('amount_too_large');
  for (const amount of ['4111111111111111', '99999999999999999999.99', 9223372036854776000, '10000000.01']) {
    it(`regular-payment with amount ${amount} is a 422 and charges nothing`, async () => {
      await expectRejected('regular-payment', paymentBody(m, { transaction: { amount } }), 422, 'transaction.amount', tooLarge);
    });
  }

  it('exactly 10,000,000.00 is accepted', async () => {
    const res = await m.call('regular-payment', paymentBody(m, { transaction: { amount: '10000000.00', channel_reference: 'MAX-1' } }));
    expect(res.status).toBe(200);
    expect(res.body.result.successful).toBe(true);
  });

  it('retrieve-bin and an order total above it are 422s', async () => {
    await expectRejected('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '10000000.01' } }, 422, 'transaction.amount', tooLarge);
    const order = { channel_token: m.channelToken, channel_reference: 'O-2', success_url: 'http://127.0.0.1:9/ok', items: [{ channel_reference: 'X-1', name: 'Big', unit_amount: '5000000.01', quantity: 2 }] };
    await expectRejected('order-payment', { order, customer: { channel_reference: 'C-1' } }, 422, 'order.items', tooLarge);
  });
});

describe('bodies too large in shape', () => {
  it(`more than ${BODY_LIMITS.keys} keys is a 400 that echoes nothing`, async () => {
    const body = paymentBody(m) as Record<string, unknown>;
    const junk = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i]));
    const started = Date.now();
    const res = await expectRejected('regular-payment', { ...body, customer: { ...(body.customer as object), ...junk } }, 400, null, message('body_too_complex', 'tr', { max: BODY_LIMITS.keys }));
    expect(res.text.length).toBeLessThan(300);
    // Not a timing assertion on the gateway: a sanity bound that the walk stopped early.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('an over-long string is a 422 on its path', async () => {
    await expectRejected('regular-payment', paymentBody(m, { customer: { address: 'x'.repeat(BODY_LIMITS.stringLength + 1) } }), 422, 'customer.address', message('too_long', 'tr', { max: BODY_LIMITS.stringLength }));
  });

  it('an over-long array is a 422 on its path', async () => {
    const order = { channel_token: m.channelToken, channel_reference: 'O-3', success_url: 'http://127.0.0.1:9/ok', items: Array.from({ length: BODY_LIMITS.arrayLength + 1 }, () => ({ channel_reference: 'X' })) };
    await expectRejected('order-payment', { order, customer: { channel_reference: 'C-1' } }, 422, 'order.items', message('too_many_items', 'tr', { max: BODY_LIMITS.arrayLength }));
  });

  it('an over-long key is a 400 that does not echo the key', async () => {
    const key = 'k'.repeat(100_000);
    const res = await expectRejected('regular-payment', { ...paymentBody(m), [key]: 1 }, 400, null, message('key_too_long', 'tr', { max: BODY_LIMITS.keyLength }));
    expect(res.text).not.toContain('kkkkkkkkkk');
  });
});

describe('keys named like Object.prototype members', () => {
  for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    it(`"${key}" inside a strict operation's object is a 422 naming the key, on its path as sent`, async () => {
      const product = { channel_token: m.channelToken, channel_reference: 'P-2', name: 'Mug', type: 'simple', amount: '10.00', tax_rate: '18' };
      // JSON text, so that "__proto__" is a real key and not the prototype.
      const raw = JSON.stringify({ product }).replace('"channel_token"', `"${key}":1,"channel_token"`);
      const before = await productCount();
      const res = await m.call('save-product', null, { raw });
      expect(res.status).toBe(422);
      // The path is the key as sent: it is no field of the contract, so there is no snake_case name to give.
      expect(res.body.errors[`product.${key}`]).toEqual([message('unknown_key', 'tr', { key })]);
      expect(await productCount()).toBe(before);
    });

    it(`"${key}" in any other operation is a 422 too, and takes no payment`, async () => {
      const raw = JSON.stringify(paymentBody(m, { transaction: { channel_reference: `PROTO-${key.length}0` } })).replace('"customer":{', `"customer":{"${key}":{"x":1},`);
      const before = await rowCounts(t);
      const res = await m.call('regular-payment', null, { raw });
      expect(res.status).toBe(422);
      expect(res.body.errors[`customer.${key}`]).toEqual([message('unknown_key', 'tr', { key })]);
      expect(await rowCounts(t)).toEqual(before);
    });

    it(`"${key}" is dropped for a workspace that ignores unknown keys`, async () => {
      const raw = JSON.stringify(paymentBody(lenient, { transaction: { channel_reference: `PROTO-${key.length}1` } })).replace('"customer":{', `"customer":{"${key}":{"x":1},`);
      const res = await lenient.call('regular-payment', null, { raw, unlistedKeys: true });
      expect(res.status).toBe(200);
      expect(res.body.result.successful).toBe(true);
    });
  }
});

describe('writes are whole', () => {
  it('save-card whose card insert fails leaves the customer untouched', async () => {
    const db = t.gateway.services.db;
    // A real failure inside the database (not a mock): a trigger refuses saved-card rows.
    await asOwner(
      t.databaseUrl,
      `CREATE OR REPLACE FUNCTION refuse_card() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$ LANGUAGE plpgsql`,
      `CREATE TRIGGER refuse_card BEFORE INSERT ON "SavedCard" FOR EACH ROW EXECUTE FUNCTION refuse_card()`,
    );
    try {
      const before = await db.customer.count();
      const res = await m.call('save-card', {
        saved_card: { channel_token: m.channelToken },
        customer: { channel_reference: 'CARD-CUST-NEW', firstname: 'Yeni' },
        card: { holder_name: 'YENI', number: CARDS.approved, expiry_month: '12', expiry_year: '2030' },
      });
      expect(res.status).toBe(500);
      expect(await db.customer.count()).toBe(before);
    } finally {
      await asOwner(t.databaseUrl, `DROP TRIGGER refuse_card ON "SavedCard"`);
    }
  });

  it('two delete-saved-card of one card at once: one deletes, the other is a 422 "no such saved card"', async () => {
    for (let round = 0; round < 5; round++) {
      const customer = { channel_token: m.channelToken, channel_reference: `DEL-${round}` };
      const saved = await m.call('save-card', {
        saved_card: { channel_token: m.channelToken },
        customer: { channel_reference: customer.channel_reference },
        card: { holder_name: 'DEL', number: CARDS.approved, expiry_month: '12', expiry_year: '2030' },
      });
      const token = saved.body.saved_card.token;
      const answers = await Promise.all([0, 1].map(() => m.call('delete-saved-card', { customer, saved_card: { token } })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
      const refused = answers.find((a) => a.status === 422)!;
      expect(refused.body.errors['saved_card.token']).toEqual([message('saved_card_not_found')]);
    }
  });
});
