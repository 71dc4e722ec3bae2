// An API payment's attempt is counted in the statement that writes its row (payments/attempt.ts):
// the row is written `started` under the account routing chose, and the decision comes with the
// row's next change. What that must not change: an allowed payment keeps its decision (settled, or
// waiting on its 3-D page); a refused one reads as an attempt that never reached account choice
// (no account, route or conversion, never a bank's decline) and no bank is asked; a degraded
// account's probe that the refused attempt claimed goes back to the account.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { paymentBody } from '../helpers/payments.ts';
import { testCardNumber } from '../helpers/cards.ts';
import { addListEntry } from '../../src/domain/risk/lists.ts';

const { t, seed } = useGateway({ now: '2026-05-04T10:00:00.000Z' });
const db = () => t.gateway.services.db;
let ref = 1;
let card = 500;

type Merchant = Awaited<ReturnType<typeof seed>>;

async function pay(m: Merchant, operation: 'regular-payment' | 'secure-payment', ip: string) {
  const body = paymentBody(m, { transaction: { channel_reference: `ROW-${ref++}`, ip, callback_url: 'https://shop.example/back' }, card: { number: testCardNumber(card++) } });
  const res = await m.call(operation, body);
  expect(res.status, res.text).toBe(200);
  await t.gateway.services.attempts.drain();
  const token = res.body.transaction.token as string;
  return { result: res.body.result as { successful: boolean; error_code?: string; redirect_url?: string }, row: await db().payment.findUniqueOrThrow({ where: { id: token } }) };
}

describe('an attempt counted with its payment row', () => {
  let m: Merchant;
  beforeAll(async () => {
    m = await seed({ riskGuard: true });
  });

  it('keeps the decision on an allowed payment, settled or waiting on its 3-D page', async () => {
    const settled = await pay(m, 'regular-payment', '192.0.2.10');
    expect(settled.row).toMatchObject({ status: 'successful', paymentAccountId: m.accountToken });
    expect(settled.row.risk).toMatchObject({ outcome: 'allow', source: 'api', guarded: true, figures: [{ kind: 'ip', cards: 1, declines: 0, coolingDown: false }, { kind: 'workspace', cards: null }] });

    const waiting = await pay(m, 'secure-payment', '192.0.2.10');
    expect(waiting.result.redirect_url).toMatch(/\/checkout\/3ds\//);
    expect(waiting.row).toMatchObject({ status: 'started', paymentAccountId: m.accountToken });
    expect(waiting.row.risk).toMatchObject({ outcome: 'allow', guarded: true, figures: [{ kind: 'ip', cards: 2 }, { kind: 'workspace' }] });
  });

  it('settles a refused attempt failed, without the account or route routing chose, and asks no bank', async () => {
    const ip = '192.0.2.20';
    for (let i = 0; i < 2; i++) expect((await pay(m, 'regular-payment', ip)).result.successful).toBe(true);
    // The third card from the address requires 3-D Secure: a regular payment is refused.
    const refused = await pay(m, 'regular-payment', ip);
    expect(refused.result).toMatchObject({ successful: false, error_code: '3ds_required' });
    expect(refused.row).toMatchObject({ status: 'failed', errorCode: '3ds_required', paymentAccountId: null, routingReason: null, routingDetail: null, chargedAmount: null, isTest: true });
    expect(refused.row.risk).toMatchObject({ outcome: 'require_3ds', rules: [{ rule: 'ip_cards_3ds' }] });
    expect(await db().providerAttempt.count({ where: { paymentId: refused.row.id } })).toBe(0);
  });

  it('gives a degraded account the probe a refused attempt claimed back, and the next payment probes it', async () => {
    const blocker = await seed({ riskGuard: true });
    const workspace = await db().workspace.update({ where: { id: blocker.workspaceId }, data: { healthCooldownSeconds: 30 } });
    const cooledAt = new Date(t.clock.now().getTime() - 60_000);
    await db().paymentAccount.update({ where: { id: blocker.accountToken }, data: { health: 'degraded', healthChangedAt: cooledAt } });
    await addListEntry({ db: db() }, workspace, { list: 'block', kind: 'ip', value: '192.0.2.66' });
    await t.gateway.admission.synced();

    const blocked = await pay(blocker, 'regular-payment', '192.0.2.66');
    expect(blocked.result).toMatchObject({ successful: false, error_code: 'blocked' });
    expect(blocked.row.paymentAccountId).toBeNull();
    // Still past its cool-down, as before the attempt: not waiting 30 s more for a probe nobody made.
    expect((await db().paymentAccount.findUniqueOrThrow({ where: { id: blocker.accountToken } })).healthChangedAt).toEqual(cooledAt);

    const probe = await pay(blocker, 'regular-payment', '192.0.2.67');
    expect(probe.result.successful).toBe(true);
    expect(probe.row.paymentAccountId).toBe(blocker.accountToken);
  });
});
