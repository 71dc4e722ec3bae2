// The raw row writes of a payment's path (src/db/rows.ts) must give back exactly what the model
// API would have: the same row, typed the same (bigints, dates, enums, nulls), as a fresh read.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client.ts';
import { insertRow, insertRowUnder, insertRows, updateRow, upsertRow, type Columns } from '../../src/db/rows.ts';
import { createWorkspace } from '../../src/domain/workspaces.ts';
import type { Customer, Payment } from '../../src/generated/prisma/client.ts';
import { createTestDatabase } from '../helpers/db.ts';

let db: Db;
let workspaceId: string;
let channelId: string;

beforeAll(async () => {
  db = createDb(await createTestDatabase());
  const { workspace } = await createWorkspace(db, randomBytes(32), { slug: 'rows' });
  workspaceId = workspace.id;
  channelId = (await db.channel.create({ data: { workspaceId, name: 'web' } })).id;
});

afterAll(async () => {
  await db.$disconnect();
});

const at = new Date('2026-03-04T05:06:07.089Z');

function newPayment(over: Partial<Payment> = {}) {
  return {
    id: randomUUID(),
    workspaceId,
    channelId,
    customerId: null,
    source: 'api' as const,
    securityType: 'non_secure' as const,
    status: 'started' as const,
    channelReference: 'R-1',
    amount: 12_345_678_901n,
    baseAmount: 12_345_678_901n,
    currency: 'TRY' as const,
    installmentNumber: 3,
    chargedAmount: null,
    isTest: true,
    cardFirstDigits: '41111111',
    cardLastFourDigits: '1111',
    createdAt: at,
    updatedAt: at,
    ...over,
  };
}

describe('insertRow', () => {
  it('returns the row as the model API reads it, defaults included', async () => {
    const inserted = await insertRow<Payment>(db, 'Payment', newPayment());
    const read = await db.payment.findUniqueOrThrow({ where: { id: inserted.id } });
    expect(inserted).toEqual(read);
    expect(inserted.amount).toBe(12_345_678_901n);
    expect(inserted.createdAt).toEqual(at);
    expect(inserted.refundedAmount).toBe(0n);
    expect(inserted.shouldSave).toBe(false);
    expect(inserted.paymentStatus).toBeNull();
  });

  it('writes nothing when a value does not fit its column', async () => {
    const id = randomUUID();
    await expect(insertRow<Payment>(db, 'Payment', newPayment({ id, currency: 'XXX' as never }))).rejects.toThrow();
    expect(await db.payment.findUnique({ where: { id } })).toBeNull();
  });
});

describe('insertRows', () => {
  const customer = (reference: string, over: Partial<Customer> = {}) => ({ id: randomUUID(), workspaceId, channelId, channelReference: reference, email: null, createdAt: at, updatedAt: at, ...over });

  it('inserts every row in one statement, as the model API reads them back', async () => {
    const rows = [customer('M-1', { email: 'one@example.com' }), customer('M-2')];
    expect(await insertRows<Customer>(db, 'Customer', rows)).toBe(2);
    const read = await db.customer.findMany({ where: { id: { in: rows.map((r) => r.id) } }, orderBy: { channelReference: 'asc' } });
    expect(read.map((r) => [r.channelReference, r.email, r.createdAt.toISOString()])).toEqual([
      ['M-1', 'one@example.com', at.toISOString()],
      ['M-2', null, at.toISOString()],
    ]);
  });

  it('writes nothing for no rows', async () => {
    const before = await db.customer.count();
    expect(await insertRows<Customer>(db, 'Customer', [])).toBe(0);
    expect(await db.customer.count()).toBe(before);
  });

  it('refuses rows whose columns differ, and writes none of them', async () => {
    const first = customer('M-3');
    await expect(insertRows<Customer>(db, 'Customer', [first, { ...customer('M-4'), phone: '555' }])).rejects.toThrow(/same columns/);
    const { email: _left, ...withoutEmail } = customer('M-5');
    await expect(insertRows<Customer>(db, 'Customer', [first, withoutEmail])).rejects.toThrow(/same columns/);
    expect(await db.customer.findUnique({ where: { id: first.id } })).toBeNull();
  });
});

describe('updateRow', () => {
  it('changes the columns given, and returns the row as a fresh read gives it', async () => {
    const { id } = await insertRow<Payment>(db, 'Payment', newPayment());
    const later = new Date('2026-03-04T05:07:00.000Z');
    const updated = await updateRow<Payment>(db, 'Payment', id, { status: 'successful', paymentStatus: 'paid', providerReference: 'P-1', completedAt: later, threeDsToken: null, updatedAt: later });
    expect(updated).toEqual(await db.payment.findUniqueOrThrow({ where: { id } }));
    expect(updated.status).toBe('successful');
    expect(updated.completedAt).toEqual(later);
    expect(updated.channelReference).toBe('R-1');
  });

  it('throws when there is no such row', async () => {
    await expect(updateRow<Payment>(db, 'Payment', randomUUID(), { status: 'failed' })).rejects.toThrow(/no Payment/);
  });

  it('returns only the columns asked for, as the fresh read has them', async () => {
    const { id } = await insertRow<Payment, 'id'>(db, 'Payment', newPayment(), ['id']);
    const updated = await updateRow<Payment, 'id' | 'status' | 'amount' | 'completedAt'>(db, 'Payment', id, { status: 'failed', completedAt: at }, ['id', 'status', 'amount', 'completedAt']);
    const read = await db.payment.findUniqueOrThrow({ where: { id } });
    expect(updated).toEqual({ id, status: 'failed', amount: read.amount, completedAt: at });
    expect(read.status).toBe('failed');
  });
});

/** upsertRow of a customer on its (channel, reference) key. */
const upsertCustomerRow = (insert: Columns<Customer>, update: Columns<Customer>) =>
  upsertRow<Customer>(db, { table: 'Customer', conflict: ['channelId', 'channelReference'], insert, update });

describe('upsertRow', () => {
  const insert = (reference: string, over: Partial<Customer> = {}) => ({ id: randomUUID(), workspaceId, channelId, channelReference: reference, createdAt: at, updatedAt: at, ...over });

  it('inserts a new row', async () => {
    const row = await upsertCustomerRow(insert('C-1', { email: 'a@example.com' }), { email: 'a@example.com' });
    expect(row).toEqual(await db.customer.findUniqueOrThrow({ where: { id: row.id } }));
    expect(row.email).toBe('a@example.com');
  });

  it('updates the stored row on a clash of its key, keeping its id', async () => {
    const first = await upsertCustomerRow(insert('C-2', { email: 'old@example.com', phone: '555' }), {});
    const later = new Date('2026-03-05T00:00:00.000Z');
    const second = await upsertCustomerRow(insert('C-2', { email: 'new@example.com' }), { email: 'new@example.com', updatedAt: later });
    expect(second.id).toBe(first.id);
    expect(second).toEqual(await db.customer.findUniqueOrThrow({ where: { id: first.id } }));
    expect(second.email).toBe('new@example.com');
    expect(second.phone).toBe('555');
    expect(second.updatedAt).toEqual(later);
    expect(await db.customer.count({ where: { channelId, channelReference: 'C-2' } })).toBe(1);
  });

  it('leaves the stored row as it is when there is nothing to update, and returns it', async () => {
    const first = await upsertCustomerRow(insert('C-3', { email: 'kept@example.com' }), {});
    const again = await upsertCustomerRow(insert('C-3', { updatedAt: new Date('2027-01-01T00:00:00.000Z') }), {});
    expect(again).toEqual(first);
  });
});

describe('insertRowUnder', () => {
  const customer = (reference: string, details: Columns<Customer>) => ({
    table: 'Customer' as const,
    conflict: ['channelId', 'channelReference'] as Array<keyof Customer & string>,
    insert: { workspaceId, channelId, channelReference: reference, createdAt: at, ...details },
    update: details,
  });

  it('writes a new parent and the row under it, and returns both as the model API reads them', async () => {
    const { row, parent } = await insertRowUnder<Payment, Customer>(db, customer('U-1', { email: 'u1@example.com' }), 'customerId', 'Payment', newPayment({ customerId: undefined }));
    expect(parent).toEqual(await db.customer.findUniqueOrThrow({ where: { id: parent.id } }));
    expect(row).toEqual(await db.payment.findUniqueOrThrow({ where: { id: row.id } }));
    expect(row.customerId).toBe(parent.id);
    expect(parent.email).toBe('u1@example.com');
    expect(row.amount).toBe(12_345_678_901n);
  });

  it('updates a parent found by its key, keeping its id and the fields not sent', async () => {
    const first = await insertRowUnder<Payment, Customer>(db, customer('U-2', { email: 'old@example.com', phone: '555' }), 'customerId', 'Payment', newPayment({ customerId: undefined }));
    const second = await insertRowUnder<Payment, Customer>(db, customer('U-2', { email: 'new@example.com' }), 'customerId', 'Payment', newPayment({ customerId: undefined }));
    expect(second.parent.id).toBe(first.parent.id);
    expect(second.parent).toEqual(await db.customer.findUniqueOrThrow({ where: { id: first.parent.id } }));
    expect(second.parent).toMatchObject({ email: 'new@example.com', phone: '555' });
    expect(second.row.customerId).toBe(first.parent.id);
  });

  it('returns only the columns asked for of each, and writes the whole rows', async () => {
    const { row, parent } = await insertRowUnder<Payment, Customer, 'id' | 'customerId', 'id' | 'channelReference'>(
      db,
      customer('U-4', { email: 'u4@example.com' }),
      'customerId',
      'Payment',
      newPayment({ customerId: undefined }),
      { row: ['id', 'customerId'], parent: ['id', 'channelReference'] },
    );
    expect(Object.keys(row).sort()).toEqual(['customerId', 'id']);
    expect(parent).toEqual({ id: row.customerId, channelReference: 'U-4' });
    expect(await db.customer.findUniqueOrThrow({ where: { id: parent.id } })).toMatchObject({ email: 'u4@example.com' });
    expect(await db.payment.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ amount: 12_345_678_901n, customerId: parent.id });
  });

  it('writes neither when the row fails: one statement', async () => {
    const bad = newPayment({ customerId: undefined, paymentAccountId: randomUUID() });
    await expect(insertRowUnder<Payment, Customer>(db, customer('U-3', { email: 'u3@example.com' }), 'customerId', 'Payment', bad)).rejects.toThrow();
    expect(await db.customer.count({ where: { channelId, channelReference: 'U-3' } })).toBe(0);
    expect(await db.payment.count({ where: { id: bad.id } })).toBe(0);
  });
});

describe('what the model API fills in', () => {
  it('a new row gets an id and updatedAt, an updated row a new updatedAt, unless the caller gives them', async () => {
    const { id: _id, updatedAt: _updatedAt, ...bare } = newPayment();
    const before = Date.now();
    const inserted = await insertRow<Payment>(db, 'Payment', bare);
    expect(inserted.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(inserted.updatedAt.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(inserted.createdAt).toEqual(at);
    const stale = new Date('2020-01-01T00:00:00.000Z');
    await updateRow<Payment>(db, 'Payment', inserted.id, { updatedAt: stale });
    const updated = await updateRow<Payment>(db, 'Payment', inserted.id, { status: 'failed' });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(before - 1);
  });

  it('an upsert that updates stamps updatedAt; one with nothing to update does not', async () => {
    const old = new Date('2020-01-01T00:00:00.000Z');
    const first = await upsertCustomerRow({ workspaceId, channelId, channelReference: 'S-1', createdAt: at, updatedAt: old }, {});
    expect(first.updatedAt).toEqual(old);
    expect((await upsertCustomerRow({ workspaceId, channelId, channelReference: 'S-1' }, {})).updatedAt).toEqual(old);
    const changed = await upsertCustomerRow({ workspaceId, channelId, channelReference: 'S-1' }, { email: 'new@example.com' });
    expect(changed.id).toBe(first.id);
    expect(changed.updatedAt.getTime()).toBeGreaterThan(old.getTime());
  });
});

it('refuses a column name that is not a plain identifier', async () => {
  await expect(insertRow<Payment>(db, 'Payment', { ...newPayment(), ['id" = 1; --' as 'id']: 'x' })).rejects.toThrow(/not a column name/);
  // Quoted names are remembered; a refused one never is, so it is refused again.
  await expect(insertRow<Payment>(db, 'Payment', { ...newPayment(), ['id" = 1; --' as 'id']: 'x' })).rejects.toThrow(/not a column name/);
});
