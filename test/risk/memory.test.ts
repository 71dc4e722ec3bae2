// What a process remembers of the card-testing guard's counts (src/domain/risk/memory.ts): a quiet
// address's repeated card is judged from its last count, and anything that could change the
// figures, in this process or another, makes the next attempt count again.
import { beforeAll, describe, expect, it } from 'vitest';
import { useResources } from '../helpers/fixture.ts';
import { seedWorkspace, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { testCardNumber } from '../helpers/cards.ts';
import { call } from '../helpers/client.ts';
import { riskMemory, RISK_CHANNEL } from '../../src/domain/risk/memory.ts';
import type { Notifications } from '../../src/db/notifications.ts';
import type { Counted, GuardAttempt, SourceFigures } from '../../src/domain/risk/guard.ts';
import { settleAfterBank, settlePayment } from '../../src/domain/payments/settle.ts';
import { loadConfig } from '../../src/config.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { gql } from '../helpers/webhooks.ts';

const RISK_FIGURES = `query($t: String!) { payment(token: $t) { risk { figures { source countAgeMs } } } }`;

/** A LISTEN connection as the memory sees it, driven by hand. */
function handNotifications() {
  const handlers = new Map<string, Array<(payload: string) => void>>();
  const gaps: Array<() => void> = [];
  const n = {
    connected: true,
    on(channel: string, handler: (payload: string) => void) {
      handlers.set(channel, [...(handlers.get(channel) ?? []), handler]);
    },
    onGap: (handler: () => void) => void gaps.push(handler),
    stop: async () => {},
    send: (channel: string, payload: string) => handlers.get(channel)?.forEach((h) => h(payload)),
    gap: () => gaps.forEach((g) => g()),
  };
  return n satisfies Notifications;
}

const WS = '11111111-1111-4111-8111-111111111111';
const attempt = (over: Partial<GuardAttempt> = {}, ip: string | null = '203.0.113.5'): GuardAttempt => ({
  workspaceId: WS,
  paymentId: '22222222-2222-4222-8222-222222222222',
  fingerprint: 'fp-1',
  at: new Date(0),
  listed: null,
  sources: [
    ...(ip ? [{ kind: 'ip' as const, key: ip, cards: 5, cardsFor3ds: 3, declines: 4 }] : []),
    { kind: 'workspace' as const, key: WS, cards: 0, cardsFor3ds: 0, declines: 200 },
  ],
  ...over,
});
const figure = (kind: SourceFigures['kind'], over: Partial<SourceFigures> = {}): SourceFigures => ({
  kind,
  cards: 1,
  declines: 0,
  coolingDown: false,
  cardsFired: false,
  declinesFired: false,
  threeDsFired: false,
  ...over,
});
const quietCount = (ip: Partial<SourceFigures> = {}): Counted => ({ figures: [figure('ip', ip), figure('workspace')], listed: [] });

describe('the memory of counts, alone', () => {
  const setup = (ttl = 1000) => {
    const n = handNotifications();
    return { n, memory: riskMemory(n, ttl, { workspaceChanged: 'gateway_admission' }) };
  };

  it('gives back a quiet count for the same card from the same address within its life, with the count\'s age, and nothing else', () => {
    const { memory } = setup();
    memory.remember(attempt(), quietCount({ declines: 2 }), memory.generation(), 1000);
    expect(memory.recall(attempt(), 1999)?.figures).toEqual(quietCount({ declines: 2 }).figures.map((f) => ({ ...f, countAgeMs: 999 })));
    expect(memory.recall(attempt(), 2000)).toBeUndefined(); // its life is over
    expect(memory.recall(attempt({ fingerprint: 'fp-2' }), 1500)).toBeUndefined(); // a new card is counted
    expect(memory.recall(attempt({}, '203.0.113.6'), 1500)).toBeUndefined(); // so is a new address
    expect(memory.recall(attempt({ workspaceId: '33333333-3333-4333-8333-333333333333' }), 1500)).toBeUndefined();
    // Without an address the workspace's own figures are all there is to count.
    expect(memory.recall(attempt({}, null), 1500)?.figures).toEqual([figure('workspace', { countAgeMs: 500 })]);
  });

  it('keeps nothing that is not quiet: a second card, a rule that fired, a cool-down, a page, list entries', () => {
    const { memory } = setup();
    const g = memory.generation();
    memory.remember(attempt(), quietCount({ cards: 2 }), g, 0);
    memory.remember(attempt({ fingerprint: 'fp-2' }), quietCount({ declinesFired: true, declines: 4 }), g, 0);
    memory.remember(attempt({ fingerprint: 'fp-3' }), quietCount({ coolingDown: true }), g, 0);
    expect([memory.recall(attempt(), 1), memory.recall(attempt({ fingerprint: 'fp-2' }), 1), memory.recall(attempt({ fingerprint: 'fp-3' }), 1)]).toEqual([undefined, undefined, undefined]);
    const page = attempt({ sources: [...attempt().sources, { kind: 'target', key: 'link-1', cards: 0, cardsFor3ds: 0, declines: 25 }] });
    memory.remember(page, { figures: [...quietCount().figures, figure('target')] }, g, 0);
    expect(memory.recall(page, 1)).toBeUndefined();
    const listed = attempt({ listed: { digits: null, fingerprint: 'fp-1', ip: '203.0.113.5', email: null, country: null } });
    memory.remember(listed, quietCount(), g, 0);
    expect(memory.recall(listed, 1)).toBeUndefined();
  });

  it('keeps the workspace\'s own figures from any count whose workspace figure is quiet, for attempts that must count their other sources', () => {
    const { memory } = setup();
    const page = attempt({ sources: [...attempt().sources, { kind: 'target', key: 'link-1', cards: 0, cardsFor3ds: 0, declines: 25 }] });
    // An address with a second card: the address is not kept, the workspace is.
    memory.remember(page, { figures: [figure('ip', { cards: 2 }), figure('target'), figure('workspace', { declines: 7 })] }, memory.generation(), 0);
    expect(memory.recall(attempt(), 1)).toBeUndefined();
    expect(memory.recallWorkspace(page, 1)).toEqual(figure('workspace', { declines: 7, countAgeMs: 1 }));
    expect(memory.recallWorkspace(attempt({ fingerprint: 'fp-9' }, '203.0.113.99'), 999)).toEqual(figure('workspace', { declines: 7, countAgeMs: 999 }));
    expect(memory.recallWorkspace(page, 1000)).toBeUndefined();
    const strict = attempt({ sources: [attempt().sources[0]!, { kind: 'workspace', key: WS, cards: 0, cardsFor3ds: 0, declines: 7 }] });
    expect(memory.recallWorkspace(strict, 1)).toBeUndefined();
    memory.forget(WS);
    expect(memory.recallWorkspace(page, 1)).toBeUndefined();
  });

  it('judges the kept figures under the thresholds of the attempt: a lowered threshold counts again', () => {
    const { memory } = setup();
    memory.remember(attempt(), quietCount({ declines: 2 }), memory.generation(), 0);
    const stricter = attempt({ sources: [{ kind: 'ip', key: '203.0.113.5', cards: 5, cardsFor3ds: 3, declines: 2 }, attempt().sources[1]!] });
    expect(memory.recall(stricter, 1)).toBeUndefined();
  });

  it('forgets the workspace on its announcements, its own refusals, a lost connection, and a count taken before any of them', () => {
    const { n, memory } = setup();
    const kept = () => memory.recall(attempt(), 1) !== undefined;
    const keep = () => memory.remember(attempt(), quietCount(), memory.generation(), 0);
    keep();
    n.send(RISK_CHANNEL, '33333333-3333-4333-8333-333333333333'); // another workspace
    expect(kept()).toBe(true);
    n.send(RISK_CHANNEL, WS);
    expect(kept()).toBe(false);
    keep();
    n.send('gateway_admission', WS); // its thresholds, lists or guard switch changed
    expect(kept()).toBe(false);
    keep();
    memory.forget(WS);
    expect(kept()).toBe(false);
    keep();
    n.gap();
    expect(kept()).toBe(false);
    // A count sent before an announcement and answered after it is not kept.
    const before = memory.generation();
    n.send(RISK_CHANNEL, WS);
    memory.remember(attempt(), quietCount(), before, 0);
    expect(kept()).toBe(false);
    // Nothing is kept or used while the connection is down.
    keep();
    n.connected = false;
    expect(kept()).toBe(false);
    n.connected = true;
    expect(kept()).toBe(true);
  });
});

describe('the memory of counts, in two gateways over one database', () => {
  const resources = useResources();
  let a: TestGateway;
  let b: TestGateway;
  let m: Merchant;

  beforeAll(async () => {
    // A long life, so that nothing here is counted again because a machine was slow.
    a = await resources.startGateway({ env: { RISK_MEMORY_MS: '60000' } });
    b = await resources.startGateway({ databaseUrl: a.databaseUrl, clock: a.clock, env: { RISK_MEMORY_MS: '60000' } });
    m = await seedWorkspace(a, { riskGuard: true });
    await b.gateway.admission.synced();
  }, 60_000);

  const creds = () => ({ team: m.team, apiKey: m.apiKey, apiSecret: m.apiSecret });
  let n = 0;
  async function pay(g: TestGateway, ip: string, number: string): Promise<{ successful: boolean; token: string; code: string | null }> {
    const res = await call(g.gateway.baseUrl, creds(), 'regular-payment', paymentBody(m, { transaction: { channel_reference: `MEM-${++n}`, ip }, card: { number } }));
    expect(res.status, res.text).toBe(200);
    return { successful: res.body.result.successful, token: res.body.transaction.token, code: res.body.result.error_code ?? null };
  }
  const attemptRows = async (ip: string) => a.gateway.services.db.riskAttempt.count({ where: { workspaceId: m.workspaceId, kind: 'ip', key: ip } });
  const ipFigures = async (token: string) => {
    const p = await a.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
    return (p.risk as { figures: Array<{ kind: string; cards: number | null; declines: number; countAgeMs?: number }> }).figures.find((f) => f.kind === 'ip');
  };
  const synced = () => Promise.all([a.gateway.admission.synced(), b.gateway.admission.synced()]);

  it('a repeated card from a quiet address is judged from the last count, with its figures and that count\'s age, and writes no attempt row', async () => {
    const ip = '198.51.100.10';
    const card = testCardNumber(1);
    const first = await pay(a, ip, card);
    const second = await pay(a, ip, card);
    expect([first.successful, second.successful]).toEqual([true, true]);
    expect(await attemptRows(ip)).toBe(1);
    const counted = await ipFigures(first.token);
    expect(counted).not.toHaveProperty('countAgeMs');
    const recalled = await ipFigures(second.token);
    expect(recalled).toEqual({ ...counted, countAgeMs: expect.any(Number) });
    // As support reads it: the age of the count the decision stood on, null where it counted.
    const token = await createAccessToken(a.gateway.services.db, m.team, 'support-view');
    const figures = async (t: string) => (await gql(a, token, RISK_FIGURES, { t })).body.data.payment.risk.figures as Array<{ source: string; countAgeMs: number | null }>;
    expect((await figures(first.token)).map((f) => f.countAgeMs)).toEqual([null, null]);
    const ages = await figures(second.token);
    expect(ages.map((f) => f.source)).toEqual(['ip', 'workspace']);
    for (const f of ages) expect(f.countAgeMs).toBeGreaterThanOrEqual(0);
    expect(ages[0]!.countAgeMs).toBe(recalled?.countAgeMs);
    // The other process has no memory of it: it counts.
    await pay(b, ip, card);
    expect(await attemptRows(ip)).toBe(2);
  });

  it('a second card on the address counted by the other process makes this one count again and see it', async () => {
    const ip = '198.51.100.11';
    await pay(a, ip, testCardNumber(2));
    await pay(a, ip, testCardNumber(2));
    expect(await attemptRows(ip)).toBe(1);
    await pay(b, ip, testCardNumber(3));
    await synced();
    const again = await pay(a, ip, testCardNumber(2));
    expect(await attemptRows(ip)).toBe(3);
    expect((await ipFigures(again.token))?.cards).toBe(2);
  });

  it('a payment a bank refused in the other process makes this one count again', async () => {
    const ip = '198.51.100.12';
    await pay(a, ip, testCardNumber(4));
    await pay(a, ip, testCardNumber(4));
    expect(await attemptRows(ip)).toBe(1);
    expect((await pay(b, '198.51.100.99', CARDS.insufficientFunds)).successful).toBe(false);
    await synced();
    await pay(a, ip, testCardNumber(4));
    expect(await attemptRows(ip)).toBe(2);
  });

  it('a new address counts itself and takes the workspace\'s figures from memory, which a refusal in the other process renews', async () => {
    const declines = () => a.gateway.services.db.payment.count({ where: { workspaceId: m.workspaceId, status: 'failed', paymentAccountId: { not: null } } });
    const workspaceFigure = async (token: string) => {
      const p = await a.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
      return (p.risk as { figures: Array<{ kind: string; declines: number }> }).figures.find((f) => f.kind === 'workspace')?.declines;
    };
    await pay(a, '198.51.100.20', testCardNumber(20));
    const before = await pay(a, '198.51.100.21', testCardNumber(21));
    expect(await attemptRows('198.51.100.21')).toBe(1);
    expect(await workspaceFigure(before.token)).toBe(await declines());
    expect((await pay(b, '198.51.100.98', CARDS.insufficientFunds)).successful).toBe(false);
    await synced();
    const after = await pay(a, '198.51.100.22', testCardNumber(22));
    expect(await workspaceFigure(after.token)).toBe(await declines());
    expect(await workspaceFigure(after.token)).toBe((await workspaceFigure(before.token))! + 1);
  });

  it('a remembered workspace figure is used no longer than its life after its own count, however many counts used it', async () => {
    // A third process whose statements are seen: how many sources each count's VALUES list holds.
    const sent: string[] = [];
    const c = await resources.startGateway({ databaseUrl: a.databaseUrl, clock: a.clock, env: { RISK_MEMORY_MS: '60000' }, onQuery: (sql) => sent.push(sql) });
    const sources = async (ip: string) => {
      sent.length = 0;
      await pay(c, ip, testCardNumber(40));
      const count = sent.find((sql) => sql.includes('"RiskAttempt"'));
      return count ? count.split('::int),(').length : 0;
    };
    expect(await sources('198.51.100.40')).toBe(2); // address and workspace: nothing kept yet
    a.clock.advance(40_000);
    expect(await sources('198.51.100.41')).toBe(1); // the workspace's figures from memory, 40 s old
    a.clock.advance(30_000);
    expect(await sources('198.51.100.42')).toBe(2); // 70 s after its count: read again
  });

  it('a card declined again and again from one address is blocked at the threshold, as when every attempt was counted', async () => {
    const ip = '198.51.100.13';
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await pay(a, ip, CARDS.insufficientFunds)).code);
    // The address's fifth attempt sees its four declines (riskIpDeclines, 4) and is blocked, as is the sixth (its cool-down).
    expect(answers.slice(4)).toEqual(['blocked', 'blocked']);
    expect(answers.slice(0, 4).every((code) => code !== null && code !== 'blocked')).toBe(true);
  });

  it('a payment settled failed in this process forgets its workspace at once, before any notification could arrive', async () => {
    const forgotten: string[] = [];
    const s = { ...a.gateway.services, riskMemory: { generation: () => 0, recall: () => undefined, recallWorkspace: () => undefined, remember: () => {}, forget: (ws: string) => void forgotten.push(ws) } };
    const started = () =>
      a.gateway.services.db.payment.create({
        data: { workspaceId: m.workspaceId, channelId: m.channelToken, paymentAccountId: m.accountToken, source: 'api', securityType: 'non_secure', status: 'started', channelReference: `MEM-S-${++n}`, amount: 10_000n, baseAmount: 10_000n, currency: 'TRY', isTest: true, createdAt: a.clock.now() },
      });
    const declined = { status: 'failed' as const, errorCode: 'card_declined', errorMessage: 'declined' };
    await settleAfterBank(s, { id: (await started()).id, workspaceId: m.workspaceId, source: 'api' }, { status: 'successful', providerReference: 'sim-1' });
    expect(forgotten).toEqual([]);
    await settleAfterBank(s, { id: (await started()).id, workspaceId: m.workspaceId, source: 'api' }, declined);
    expect(forgotten).toEqual([m.workspaceId]);
    const inTransaction = await started();
    await s.db.$transaction((tx) => settlePayment(tx, s, inTransaction.id, declined, a.clock.now()));
    expect(forgotten).toEqual([m.workspaceId, m.workspaceId]);
  });
});

describe('RISK_MEMORY_MS', () => {
  const resources = useResources();

  it('is 1 s by default, 0 turns the memory off (every attempt counted), and a value out of range is refused at start', async () => {
    expect(loadConfig({}).RISK_MEMORY_MS).toBe(1000);
    expect(() => loadConfig({ RISK_MEMORY_MS: '60001' })).toThrow(/RISK_MEMORY_MS/);
    expect(() => loadConfig({ RISK_MEMORY_MS: '-1' })).toThrow(/RISK_MEMORY_MS/);
    const off = await resources.startGateway({ env: { RISK_MEMORY_MS: '0' } });
    expect(off.gateway.services.riskMemory).toBeUndefined();
    const m = await seedWorkspace(off, { riskGuard: true });
    const body = () => paymentBody(m, { transaction: { channel_reference: `OFF-${Math.random()}`, ip: '198.51.100.50' }, card: { number: testCardNumber(50) } });
    for (let i = 0; i < 3; i++) expect((await m.call('regular-payment', body())).body.result.successful).toBe(true);
    expect(await off.gateway.services.db.riskAttempt.count({ where: { workspaceId: m.workspaceId, key: '198.51.100.50' } })).toBe(3);
  });
});
