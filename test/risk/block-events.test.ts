// The risk_source.blocked event: sent once when the card-testing guard starts blocking a source,
// not for every attempt it blocks afterwards (even attempts racing into the block), and again when
// the source starts a new block after its cool-down. Its body names the source's token and the
// attempt that started it; GraphQL riskSource reads the source.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { gql, notificationsOf } from '../helpers/webhooks.ts';
import { testCardNumber } from '../helpers/cards.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { riskSourceId } from '../../src/domain/risk/sources.ts';

const { t, seed, receiver } = useGateway({ now: '2026-05-04T10:00:00.000Z', receiver: true });
let ref = 1;
let cardIndex = 5000;

type Merchant = Awaited<ReturnType<typeof seed>>;

async function pay(m: Merchant, ip: string) {
  const res = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: `BLK-${ref++}`, ip }, card: { number: testCardNumber(cardIndex++) } }));
  expect(res.status, res.text).toBe(200);
  return { token: res.body.transaction.token as string, code: res.body.result.error_code as string | undefined };
}

const SOURCE = `query($token: String!) { riskSource(token: $token) { token kind key rule paymentToken blocks } workspace { riskSources { token kind key } } }`;

describe('the risk_source.blocked event', () => {
  let m: Merchant;
  let owner: string;
  beforeAll(async () => {
    m = await seed({ riskGuard: true });
    owner = await createAccessToken(t.gateway.services.db, m.team, 'blocks-owner');
    const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(t.gateway.services, ws, { url: `${receiver.url}/risk`, events: ['risk_source.blocked'] });
  });

  it('is sent once when an address is first blocked, not for the attempts blocked after it, even racing ones', async () => {
    const ip = '203.0.113.7';
    const source = riskSourceId(m.workspaceId, 'ip', ip);
    for (let i = 0; i < 4; i++) expect((await pay(m, ip)).code).toBeUndefined();
    // Six attempts at once, each over the threshold, each may see the address not yet cooling down.
    const burst = await Promise.all(Array.from({ length: 6 }, () => pay(m, ip)));
    expect(burst.map((b) => b.code)).toEqual(Array(6).fill('blocked'));
    for (let i = 0; i < 3; i++) expect((await pay(m, ip)).code).toBe('blocked');

    expect(await eventsOf(t, source)).toEqual(['risk_source.blocked']);
    const [note, ...more] = await notificationsOf(t, { recordToken: source });
    expect(more).toEqual([]);
    const body = JSON.parse(note!.body);
    expect(body).toEqual({ id: note!.id, event: 'risk_source.blocked', created_at: expect.any(String), risk_source: { token: source }, transaction: { token: expect.any(String) } });
    const starter = body.transaction.token as string;
    expect(burst.map((b) => b.token)).toContain(starter);
    const named = await t.gateway.services.db.outboxEvent.findMany({ where: { transactionToken: starter }, select: { kind: true } });
    expect(named.map((e) => e.kind)).toEqual(['risk_source.blocked']);

    const read = await gql(t, owner, SOURCE, { token: source });
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.riskSource).toEqual({ token: source, kind: 'ip', key: ip, rule: 'ip_cards', paymentToken: starter, blocks: 1 });
    expect(read.body.data.workspace.riskSources).toContainEqual({ token: source, kind: 'ip', key: ip });
  });

  it('is sent again when the source starts a new block after its cool-down, under the same token', async () => {
    const ip = '203.0.113.8';
    const source = riskSourceId(m.workspaceId, 'ip', ip);
    for (let i = 0; i < 5; i++) await pay(m, ip);
    expect(await eventsOf(t, source)).toEqual(['risk_source.blocked']);
    // Past the window and the cool-down: the address pays again, then a new run starts a new block.
    t.clock.advance(1801_000);
    for (let i = 0; i < 4; i++) expect((await pay(m, ip)).code).toBeUndefined();
    expect((await pay(m, ip)).code).toBe('blocked');
    expect(await eventsOf(t, source)).toEqual(['risk_source.blocked', 'risk_source.blocked']);
    expect((await gql(t, owner, SOURCE, { token: source })).body.data.riskSource).toMatchObject({ blocks: 2 });
  });

  it('another workspace cannot read the source', async () => {
    const other = await seed({ riskGuard: true });
    const token = await createAccessToken(t.gateway.services.db, other.team, 'other-owner');
    const read = await gql(t, token, SOURCE, { token: riskSourceId(m.workspaceId, 'ip', '203.0.113.7') });
    expect(read.body.data.riskSource).toBeNull();
  });
});
