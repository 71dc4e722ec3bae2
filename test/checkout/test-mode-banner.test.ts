// A test workspace's hosted pages say they are in test mode before anything else, so nobody types
// a real card into them by mistake; a live workspace's pages do not.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { orderBody } from '../helpers/orders.ts';

const { t, merchant: m } = useGateway({ merchant: true });

const pageOf = async (headers: Record<string, string> = {}) => {
  const res = await m.call('order-payment', orderBody(m));
  expect(res.status).toBe(200);
  return (await fetch(res.body.order.checkout_url, { headers })).text();
};

describe('the test-mode banner', () => {
  it('shows on a test workspace, in the page language, and not once the workspace is live', async () => {
    const db = t.gateway.services.db;
    await db.workspace.update({ where: { id: m.workspaceId }, data: { mode: 'test' } });
    await t.gateway.admission.synced();
    const test = await pageOf({ 'Accept-Language': 'en' });
    expect(test).toMatch(/<body>[\s\S]*<p class="test-mode" role="note" id="test-mode">Test mode: no real card is charged; use a test card\.<\/p>/);
    expect(await pageOf()).toContain('Test modu: gerçek kart çekilmez; bir test kartı kullanın.');

    await db.workspace.update({ where: { id: m.workspaceId }, data: { mode: 'live' } });
    await t.gateway.admission.synced();
    expect(await pageOf()).not.toContain('id="test-mode"');
  });
});
