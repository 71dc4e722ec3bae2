// The card-testing guard on the API (one gateway, its database): distinct cards from one address
// first require 3-D Secure (a regular payment is refused with 3ds_required), then block; a blocked
// source stays blocked for the cool-down whatever the card; declines from one address block too.
// A blocked payment's REST body, event, GraphQL risk field, timeline entry and metric; another
// address is not affected; a typo caught by the Luhn check counts nothing. Settings over GraphQL
// (developers change, operators read) and the CLI.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { gql } from '../helpers/webhooks.ts';
import { cliOn } from '../helpers/cli.ts';
import { mistyped, testCardNumber } from '../helpers/cards.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { msg } from '../helpers/messages.ts';

const { t, seed } = useGateway({ now: '2026-05-04T10:00:00.000Z' });
const cli = cliOn(t);
let ref = 100;
let cardIndex = 1;

const nextCard = () => testCardNumber(cardIndex++);
const providerCalls = (paymentId: string) => t.gateway.services.db.providerAttempt.count({ where: { paymentId } });

type Merchant = Awaited<ReturnType<typeof seed>>;

async function pay(m: Merchant, operation: 'regular-payment' | 'secure-payment', number: string, ip: string) {
  const res = await m.call(operation, paymentBody(m, { transaction: { channel_reference: `G-${ref++}`, ip }, card: { number } }));
  expect(res.status, res.text).toBe(200);
  await t.gateway.services.attempts.drain();
  return { result: res.body.result as { successful: boolean; message: string | null; error_code?: string }, token: res.body.transaction.token as string, body: res.body };
}

const RISK = `query($token: String!) { payment(token: $token) { status errorCode risk { outcome source guarded rules { rule outcome saw threshold } figures { source cards declines coolingDown } } timeline { entries { kind status name detail } } } }`;

describe('the card-testing guard on the API', () => {
  let m: Merchant;
  let owner: string;
  beforeAll(async () => {
    m = await seed({ riskGuard: true });
    owner = await createAccessToken(t.gateway.services.db, m.team, 'risk-owner');
  });

  it('is on by default with the documented thresholds', async () => {
    const fresh = await t.gateway.services.db.workspace.create({ data: { slug: `fresh${Date.now()}`, name: 'Fresh' } });
    expect(fresh).toMatchObject({ riskGuard: true, riskWindowSeconds: 600, riskCooldownSeconds: 1800, riskIpCards: 5, riskIpCardsFor3ds: 3, riskIpDeclines: 4, riskTargetDeclines: 25, riskWorkspaceDeclines: 200 });
  });

  it('one address: two cards pass, the third and fourth need 3-D Secure, the fifth is blocked, and then every card is', async () => {
    const ip = '198.51.100.10';
    const first = await pay(m, 'regular-payment', nextCard(), ip);
    const second = await pay(m, 'regular-payment', nextCard(), ip);
    expect([first.result.successful, second.result.successful]).toEqual([true, true]);
    // A typo the Luhn check catches is refused before the guard and counts nothing.
    expect((await pay(m, 'regular-payment', mistyped(nextCard()), ip)).result.error_code).toBe('invalid_card_number');

    const third = await pay(m, 'regular-payment', nextCard(), ip);
    expect(third.result).toMatchObject({ successful: false, error_code: '3ds_required', message: msg('decline_3ds_required') });
    expect(await providerCalls(third.token)).toBe(0);
    // The same card through secure-payment meets the requirement with its 3-D step.
    const secure = await pay(m, 'secure-payment', nextCard(), ip);
    expect(secure.result.successful).toBe(true);
    expect(secure.body.result.redirect_url).toBeTruthy();

    const blocked = await pay(m, 'secure-payment', nextCard(), ip);
    expect(blocked.body.result).toEqual({ successful: false, message: msg('decline_card_declined'), error_code: 'blocked', redirect_url: null });
    expect(blocked.body.transaction).toMatchObject({ token: blocked.token });
    expect(await providerCalls(blocked.token)).toBe(0);
    expect(await eventsOf(t, blocked.token)).toEqual(['transaction.failed']);

    // Cooling down: a card that went through before is blocked too, so nothing tells a live card from a dead one.
    const again = await pay(m, 'regular-payment', CARDS.approved, ip);
    expect(again.result).toMatchObject({ successful: false, error_code: 'blocked', message: msg('decline_card_declined') });

    // Another address of the same workspace is not affected.
    expect((await pay(m, 'regular-payment', nextCard(), '198.51.100.11')).result.successful).toBe(true);

    const res = await gql(t, owner, RISK, { token: blocked.token });
    expect(res.body.errors).toBeUndefined();
    const payment = res.body.data.payment;
    expect(payment).toMatchObject({ status: 'failed', errorCode: 'blocked' });
    expect(payment.risk).toEqual({
      outcome: 'block',
      source: 'api',
      guarded: true,
      rules: [{ rule: 'ip_cards', outcome: 'block', saw: 5, threshold: 5 }],
      figures: [
        { source: 'ip', cards: 5, declines: 0, coolingDown: false },
        { source: 'workspace', cards: null, declines: 0, coolingDown: false },
      ],
    });
    expect(payment.timeline.entries.find((e: { kind: string }) => e.kind === 'risk')).toEqual({ kind: 'risk', status: 'block', name: 'ip_cards', detail: 'ip 5 cards 0 declines · workspace 0 declines' });
    const cooled = (await gql(t, owner, RISK, { token: again.token })).body.data.payment.risk;
    expect(cooled.rules.map((r: { rule: string }) => r.rule)).toEqual(['ip_cooldown', 'ip_cards']);

    const metrics = await (await fetch(`${t.gateway.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/gateway_risk_blocked_total\{rule="ip_cards"\} [1-9]/);
    expect(metrics).toMatch(/gateway_risk_blocked_total\{rule="ip_cooldown"\} [1-9]/);
    expect(metrics).toMatch(/gateway_risk_blocked_total\{rule="luhn"\} 1/);
  });

  it('the cool-down ends: the address pays again once it has passed and the window holds fewer cards', async () => {
    const ip = '198.51.100.20';
    for (let i = 0; i < 4; i++) await pay(m, 'secure-payment', nextCard(), ip);
    expect((await pay(m, 'secure-payment', nextCard(), ip)).result.error_code).toBe('blocked');
    t.clock.advance(1799_000);
    expect((await pay(m, 'secure-payment', CARDS.approved, ip)).result.error_code).toBe('blocked');
    t.clock.advance(1_000 + 1800_000);
    expect((await pay(m, 'secure-payment', CARDS.approved, ip)).result.successful).toBe(true);
  });

  it('declines from one address block the next attempt, even with the same card', async () => {
    const ip = '198.51.100.30';
    for (let i = 0; i < 4; i++) expect((await pay(m, 'regular-payment', CARDS.insufficientFunds, ip)).result.error_code).toBe('insufficient_funds');
    const blocked = await pay(m, 'regular-payment', CARDS.insufficientFunds, ip);
    expect(blocked.result).toMatchObject({ error_code: 'blocked', message: msg('decline_card_declined') });
    const risk = (await gql(t, owner, RISK, { token: blocked.token })).body.data.payment.risk;
    expect(risk.rules).toEqual([{ rule: 'ip_declines', outcome: 'block', saw: 4, threshold: 4 }]);
  });

  it('a shopper who mistypes a few times and is declined once then pays', async () => {
    const ip = '198.51.100.40';
    const card = nextCard();
    for (let i = 0; i < 3; i++) expect((await pay(m, 'regular-payment', mistyped(card), ip)).result.error_code).toBe('invalid_card_number');
    expect((await pay(m, 'regular-payment', CARDS.insufficientFunds, ip)).result.error_code).toBe('insufficient_funds');
    expect((await pay(m, 'regular-payment', card, ip)).result.successful).toBe(true);
  });

  it('renewals and workspaces with the guard off are not counted', async () => {
    const off = await seed();
    const ip = '198.51.100.50';
    for (let i = 0; i < 6; i++) expect((await pay(off, 'regular-payment', nextCard(), ip)).result.successful).toBe(true);
  });
});

describe('the guard settings', () => {
  const SET = `mutation($input: RiskGuardInput!) { setRiskGuard(input: $input) { result { successful } errors { path code message } workspace { riskGuard riskIpCards riskCooldownSeconds } } }`;

  it('developers change them over GraphQL, operators and viewers only read them; a value out of range is refused at its field', async () => {
    const m = await seed({ riskGuard: true });
    const db = t.gateway.services.db;
    const developer = await createAccessToken(db, m.team, 'dev', { role: 'developer' });
    const operator = await createAccessToken(db, m.team, 'op', { role: 'operator' });
    const set = await gql(t, developer, SET, { input: { riskIpCards: 8, riskCooldownSeconds: 600 } });
    expect(set.body.data.setRiskGuard).toEqual({ result: { successful: true }, errors: [], workspace: { riskGuard: true, riskIpCards: 8, riskCooldownSeconds: 600 } });
    const refused = await gql(t, operator, SET, { input: { riskGuard: false } });
    expect(refused.body.errors?.[0]).toBeTruthy();
    expect((await gql(t, operator, '{ workspace { riskGuard riskIpCards } }')).body.data).toEqual({ workspace: { riskGuard: true, riskIpCards: 8 } });
    const bad = await gql(t, developer, SET, { input: { riskIpCards: 1001 } });
    expect(bad.body.data.setRiskGuard).toMatchObject({ result: { successful: false }, errors: [{ path: ['riskIpCards'], code: 'integer_between', message: 'Must be an integer from 0 to 1000.' }], workspace: null });
    expect((await db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).riskIpCards).toBe(8);
  });

  it('the CLI shows and sets them under workspace settings', async () => {
    const m = await seed({ riskGuard: true });
    const out = await cli.json<Record<string, unknown>>('workspace', 'settings', m.team, '--risk-ip-cards', '7', '--risk-guard', 'off');
    expect(out).toMatchObject({ risk_guard: false, risk_ip_cards: 7, risk_window_seconds: 600, risk_cooldown_seconds: 1800 });
    expect((await cli.run(['workspace', 'settings', m.team])).stdout).toContain('risk guard    off');
    await cli.fails(['workspace', 'settings', m.team, '--risk-guard', 'maybe'], 'Unknown value "maybe" for --risk-guard (expected on or off)');
  });
});
