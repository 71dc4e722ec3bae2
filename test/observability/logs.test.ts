// The log of a run with card payments, a saved card, a 3D start, a secret rotation and webhook
// deliveries: no card number, security code or secret in it; one access line per request; the
// request id on the response, on the request's lines, on the jobs it schedules and on the
// webhook attempts of its events.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { deliveryRounds, eventually } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { rotateCredentials } from '../../src/domain/workspaces.ts';
import { signBody } from '../../src/domain/signatures.ts';
import { createLogger } from '../../src/logger.ts';

const { t, merchant: m, receiver } = useGateway({ merchant: true, receiver: true });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECURITY_CODE = '731';
type Line = Record<string, unknown>;
const lines = (): Line[] => t.logLines.map((l) => JSON.parse(l) as Line);
const accessLines = (requestId: string) => lines().filter((l) => l.msg === 'request' && l.request_id === requestId);

describe('request logs', () => {
  it('keep card data and secrets out, and tie every line of a request to its id', async () => {
    const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(t.gateway.services, ws, { url: `${receiver.url}/hooks`, events: ['transaction.successful', 'transaction.failed'] });
    const card = (number: string) => ({ card: { number, security_code: SECURITY_CODE } });

    const approved = await m.call('regular-payment', paymentBody(m, card(CARDS.approved)), { headers: { 'X-Request-Id': 'pay-approved-1' } });
    expect(approved.status).toBe(200);
    expect(approved.body.result.successful).toBe(true);
    expect(approved.headers.get('x-request-id')).toBe('pay-approved-1');

    const declined = await m.call('regular-payment', paymentBody(m, { ...card(CARDS.insufficientFunds), transaction: { channel_reference: 'ORDER-2' } }));
    expect(declined.body.result.successful).toBe(false);
    const declinedId = declined.headers.get('x-request-id')!;
    expect(declinedId).toMatch(UUID);

    const secure = await m.call('secure-payment', paymentBody(m, { ...card(CARDS.mastercard), transaction: { channel_reference: 'ORDER-3' } }), { headers: { 'X-Request-Id': 'pay-secure-1' } });
    expect(secure.body.result.successful).toBe(true);

    const saved = await m.call('save-card', {
      saved_card: { channel_token: m.channelToken },
      customer: { channel_reference: 'CUST-LOG' },
      card: { holder_name: 'AYSE YILMAZ', number: CARDS.troy, expiry_month: '12', expiry_year: '2030', security_code: SECURITY_CODE },
    }, { headers: { 'X-Request-Id': 'x'.repeat(200) } });
    expect(saved.body.result.successful).toBe(true);
    // Too long to be echoed: a new id instead.
    expect(saved.headers.get('x-request-id')).toMatch(UUID);

    const rotated = await rotateCredentials(t.gateway.services.db, t.gateway.masterKey, m.team, t.clock);
    await t.gateway.admission.synced();
    const afterRotation = await m.call('regular-payment', paymentBody(m, { ...card(CARDS.approved), transaction: { channel_reference: 'ORDER-4' } }), { apiKey: rotated.apiKey, secret: rotated.apiSecret });
    expect(afterRotation.body.result.successful).toBe(true);
    const badSignature = await m.call('retrieve-bin', { card: { bin: '41111111' } }, { apiKey: rotated.apiKey, headers: { 'X-Signature': signBody('not-the-secret', '{}') } });
    expect(badSignature.status).toBe(401);
    expect(badSignature.headers.get('x-request-id')).toMatch(UUID);

    // The webhooks of those payments, signed with the new secret.
    t.clock.advance(30_000);
    await receiver.waitFor(3); // approved, declined, approved after the rotation (the 3D one waits)
    await deliveryRounds(t);
    await eventually(async () => lines().some((l) => l.msg === 'webhook attempt' && l.request_id === 'pay-approved-1'), 'the webhook attempt line');

    const log = t.logLines.join('\n');
    for (const secret of [CARDS.approved, CARDS.insufficientFunds, CARDS.mastercard, CARDS.troy, m.apiSecret, rotated.apiSecret]) expect(log).not.toContain(secret);
    expect(log).not.toMatch(new RegExp(`"${SECURITY_CODE}"`));

    const [access] = accessLines('pay-approved-1');
    expect(accessLines('pay-approved-1')).toHaveLength(1);
    expect(access).toMatchObject({ level: 'info', method: 'POST', operation: 'regular-payment', workspace: m.team, status: 200 });
    expect(typeof access!.duration_ms).toBe('number');
    expect(accessLines(declinedId)).toMatchObject([{ operation: 'regular-payment', workspace: m.team, status: 200 }]);
    expect(accessLines(badSignature.headers.get('x-request-id')!)).toMatchObject([{ operation: 'retrieve-bin', status: 401 }]);
    expect(accessLines(saved.headers.get('x-request-id')!)).toMatchObject([{ operation: 'save-card', status: 200 }]);

    const attempt = lines().find((l) => l.msg === 'webhook attempt' && l.request_id === 'pay-approved-1');
    expect(attempt).toMatchObject({ event: 'transaction.successful', workspace: m.team, attempt: 1, outcome: 'delivered', http_status: 200, job: 'deliver-webhooks' });
    expect(lines().some((l) => l.msg === 'webhook attempt' && l.request_id === declinedId && l.event === 'transaction.failed')).toBe(true);

    // The 3D expiry job scheduled by the secure payment carries its request id.
    const jobs = await t.gateway.services.db.$queryRaw<{ data: { requestId?: string } }[]>`SELECT data FROM agenda.agenda_jobs WHERE name = 'expire-payment'`;
    expect(jobs.map((j) => j.data.requestId)).toContain('pay-secure-1');
  });

  it('answers with the request id everywhere, GraphQL and health included', async () => {
    const health = await fetch(`${t.gateway.baseUrl}/healthz`, { headers: { 'X-Request-Id': 'health-1' } });
    expect(health.headers.get('x-request-id')).toBe('health-1');
    const gql = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'bad id with spaces' }, body: '{"query":"{ __typename }"}' });
    expect(gql.headers.get('x-request-id')).toMatch(UUID);
    await eventually(async () => accessLines('health-1').length === 1, 'the access line of /healthz');
    expect(accessLines('health-1')).toMatchObject([{ method: 'GET', operation: 'healthz', status: 200 }]);
  });
});

describe('the last line of defence in the logger', () => {
  const written = (fields: Record<string, unknown>, msg = 'x') => {
    const lines: string[] = [];
    createLogger('info', (l) => lines.push(l)).error(msg, fields);
    return lines[0]!;
  };

  it('masks card-number-like digit runs and security codes inside messages, keeping the line JSON', () => {
    const echoed = 'Variable "$i" got invalid value { card: { number: "4556737586899855", securityCode: "7391", cvc: 739 } }';
    const line = written({ error: echoed }, `failed: ${echoed}`);
    expect(line).not.toContain('4556737586899855');
    expect(line).not.toMatch(/7391|739\b/);
    expect(JSON.parse(line)).toMatchObject({ error: expect.stringContaining('securityCode: "[redacted]"') });
  });

  it('masks a card number written as a bare JSON number as a string, keeping the line JSON and other long numbers', () => {
    const line = written({ response: { systemTime: 1795560000710, binNumber: '552879' }, list: [4556737586899855] }, 'iyzico exchange');
    expect(line).not.toContain('4556737586899855');
    expect(JSON.parse(line)).toMatchObject({ response: { systemTime: 1795560000710, binNumber: '552879' }, list: ['455673******9855'] });
  });

  it('masks a bare number under a key that ends in a security code word, keeping the line JSON', () => {
    const line = written({ response: { forceCvc: 0, card_cvc: 739, installment: 1 } }, 'iyzico exchange');
    expect(line).not.toMatch(/739/);
    expect(JSON.parse(line)).toMatchObject({ response: { forceCvc: '[redacted]', card_cvc: '[redacted]', installment: 1 } });
  });

  it('masks security codes deeper than the redaction paths, as strings or numbers', () => {
    const line = written({ a: { b: { c: { securityCode: '7391', security_code: 7391, cvv: { nested: true } } } } });
    expect(JSON.parse(line)).toMatchObject({ a: { b: { c: { securityCode: '[redacted]', security_code: '[redacted]', cvv: { nested: true } } } } });
  });
});
