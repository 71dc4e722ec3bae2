// changeWithEvent: a change and the event it makes in one statement. The event, its notifications
// and its signal are written only when the change changed a row; subscription events, which need a
// second statement for the subscription's own webhook_url, are refused.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client.ts';
import { insertRow, updateRowSql } from '../../src/db/rows.ts';
import { changeWithEvent } from '../../src/domain/events.ts';
import { createWorkspace } from '../../src/domain/workspaces.ts';
import type { Payment } from '../../src/generated/prisma/client.ts';
import { createTestDatabase } from '../helpers/db.ts';

let db: Db;
let workspaceId: string;
const at = new Date('2026-05-06T07:08:09.010Z');

beforeAll(async () => {
  db = createDb(await createTestDatabase());
  workspaceId = (await createWorkspace(db, randomBytes(32), { slug: 'change-event' })).workspace.id;
  await db.webhookAddress.create({ data: { workspaceId, url: 'http://127.0.0.1:9/hooks', allEvents: true } });
});

afterAll(() => db.$disconnect());

const started = () =>
  insertRow<Payment>(db, 'Payment', { workspaceId, source: 'api', securityType: 'non_secure', status: 'started', amount: 100n, baseAmount: 100n, currency: 'TRY', isTest: true, createdAt: at });

describe('changeWithEvent', () => {
  it('returns the changed row and writes its event, one notification per address and nothing more', async () => {
    const payment = await started();
    const settled = await changeWithEvent<Payment>(db, updateRowSql<Payment>('Payment', payment.id, { status: 'failed' }), { workspaceId, kind: 'transaction.failed', recordToken: payment.id }, at);
    expect(settled).toEqual(await db.payment.findUniqueOrThrow({ where: { id: payment.id } }));
    expect(settled!.status).toBe('failed');
    const events = await db.outboxEvent.findMany({ where: { recordToken: payment.id } });
    expect(events.map((e) => [e.kind, e.createdAt])).toEqual([['transaction.failed', at]]);
    expect(await db.notification.count({ where: { outboxEventId: events[0]!.id } })).toBe(1);
  });

  it('writes no event when the change changed no row, and returns null', async () => {
    const missing = randomUUID();
    const settled = await changeWithEvent<Payment>(db, updateRowSql<Payment>('Payment', missing, { status: 'failed' }), { workspaceId, kind: 'transaction.failed', recordToken: missing }, at);
    expect(settled).toBeNull();
    expect(await db.outboxEvent.count({ where: { recordToken: missing } })).toBe(0);
    expect(await db.notification.count({ where: { recordToken: missing } })).toBe(0);
  });

  it('refuses a subscription event, and changes nothing', async () => {
    const payment = await started();
    const change = updateRowSql<Payment>('Payment', payment.id, { status: 'failed' });
    await expect(changeWithEvent(db, change, { workspaceId, kind: 'subscription.past_due', recordToken: payment.id }, at)).rejects.toThrow(/subscription\.past_due/);
    expect((await db.payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe('started');
    expect(await db.outboxEvent.count({ where: { recordToken: payment.id } })).toBe(0);
  });
});
