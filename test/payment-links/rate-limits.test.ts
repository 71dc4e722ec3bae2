// 429 (contract: request limit exceeded, listed for the payment-link endpoints): per workspace,
// shared by every gateway process through PostgreSQL, with Retry-After, the error body layout,
// and nothing written by a refused request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { call } from '../helpers/client.ts';
import { message } from '../../src/domain/messages.ts';

let one: TestGateway;
let two: TestGateway;
let a: Merchant;
let b: Merchant;

const link = { payment_link: { currency: 'TRY', items: [{ name: 'Tea', quantity: 1, unit_amount: '5.00' }] } };

beforeAll(async () => {
  one = await startTestGateway({ env: { RATE_LIMIT_LINKS_PER_MINUTE: '4', RATE_LIMIT_PER_SECOND: '0' } });
  two = await startTestGateway({ databaseUrl: one.databaseUrl, env: { RATE_LIMIT_LINKS_PER_MINUTE: '4', RATE_LIMIT_PER_SECOND: '0' } });
  a = await seedWorkspace(one);
  b = await seedWorkspace(one);
});
afterAll(async () => {
  await two?.stop();
  await one?.stop();
});

const viaTwo = (m: Merchant, body: unknown) => call(two.gateway.baseUrl, m, 'create-payment-link', body, { form: 'timestamp' });

describe('payment-link request limit across two gateway processes', () => {
  it('the fifth link request of a minute is a 429 with Retry-After, whichever process gets it, and writes nothing', async () => {
    const answers = [];
    for (let i = 0; i < 2; i++) answers.push(await a.call('create-payment-link', link, { form: 'timestamp' }));
    for (let i = 0; i < 2; i++) answers.push(await viaTwo(a, link));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);

    const links = await one.gateway.services.db.paymentLink.count({ where: { workspaceId: a.workspaceId } });
    const refused = await viaTwo(a, link);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({ result: { successful: false, message: message('rate_limited') }, errors: {} });
    expect(await one.gateway.services.db.paymentLink.count({ where: { workspaceId: a.workspaceId } })).toBe(links);
  });

  it('another workspace is not limited by the first one', async () => {
    const res = await b.call('create-payment-link', link, { form: 'timestamp' });
    expect(res.status).toBe(200);
  });

  it('the link limit does not apply to the other operations', async () => {
    const res = await a.call('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '10.00' } });
    expect(res.status).toBe(200);
  });
});

describe('per-second limit of every operation, a workspace\'s own setting', () => {
  it('a burst above the workspace\'s own 2 requests per second gets 429s', async () => {
    const c = await seedWorkspace(one);
    await one.gateway.services.db.workspace.update({ where: { id: c.workspaceId }, data: { rateLimitPerSecond: 2 } });
    await one.gateway.admission.synced();
    const answers = await Promise.all(Array.from({ length: 20 }, () => c.call('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '10.00' } })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // The burst may straddle a second boundary: at most two windows' worth get through.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(4);
    for (const r of answers.filter((x) => x.status === 429)) expect(r.headers.get('retry-after')).toBe('1');
  });
});
