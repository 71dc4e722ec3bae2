// Bad input carrying a card number and a security code never comes back in an answer (GraphQL over
// HTTP, SSE and WebSocket, the REST shim's 422) and never reaches a log line; the caller still
// learns the field path and the reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';

// A Luhn-valid number and a code that occur nowhere else in the answers or the logs.
const NUMBER = '4556737586899855';
const CVC = '7391';
const leaks = (text: string) => text.includes(NUMBER) || new RegExp(`(?<![\\w.-])${CVC}(?![\\w.-])`).test(text);

let t: TestGateway;
let m: Merchant;
let token: string;
beforeAll(async () => {
  t = await startTestGateway({ env: { NODE_ENV: 'production' } });
  m = await seedWorkspace(t, { slug: 'acme' });
  token = await createAccessToken(t.gateway.services.db, 'acme', 'dashboard');
});
afterAll(() => t?.stop());

const PAY = 'mutation ($i: PaymentInput!) { regularPayment(input: $i) { result { successful } } }';
/** Variables that graphql-js rejects while coercing, each printing the card in its message. */
const BAD_VARIABLES: Array<[string, Record<string, unknown>]> = [
  ['an unknown field beside the card', { i: { card: { number: NUMBER, securityCode: CVC, pin: '1' } } }],
  ['the number and code as JSON numbers', { i: { card: { number: Number(NUMBER), securityCode: Number(CVC) } } }],
  ['a card where a string belongs', { i: { transaction: { channelReference: { number: NUMBER, securityCode: CVC } } } }],
  ['keys that fake where the value ends', { i: { card: { 'k at "i.card"; Evil': CVC, 'x at "i.card"; ': NUMBER } } }],
];

async function graphqlOverHttp(variables: Record<string, unknown>, accept = 'application/json') {
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: accept, Authorization: `Bearer ${token}` }, body: JSON.stringify({ query: PAY, variables }) });
  return { status: res.status, text: await res.text() };
}

describe('GraphQL errors do not echo card data', () => {
  it.each(BAD_VARIABLES)('over HTTP: %s', async (_name, variables) => {
    const res = await graphqlOverHttp(variables);
    expect(res.text).toContain('Variable \\"$i\\" got invalid value [redacted]');
    expect(leaks(res.text)).toBe(false);
  });

  it('over HTTP the path and reason stay', async () => {
    const res = await graphqlOverHttp(BAD_VARIABLES[0]![1]);
    const messages = (JSON.parse(res.text) as { errors: Array<{ message: string }> }).errors.map((e) => e.message);
    expect(messages).toContain('Variable "$i" got invalid value [redacted] at "i.card"; Field "pin" is not defined by type "CardInput".');
  });

  it('over SSE', async () => {
    const res = await graphqlOverHttp(BAD_VARIABLES[1]![1], 'text/event-stream');
    expect(res.text).toContain('[redacted]');
    expect(leaks(res.text)).toBe(false);
  });

  it('a literal card in the document is not echoed by validation or the parser', async () => {
    for (const query of [
      `mutation { regularPayment(input: { card: { number: ${NUMBER}, securityCode: ${CVC} } }) { result { successful } } }`,
      `{ workspace(slug: ${NUMBER}) { slug } }`,
      `{ workspace(slug: "${CVC}" ${NUMBER}) { slug } }`,
    ]) {
      const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ query }) });
      const text = await res.text();
      expect(text).toContain('errors');
      expect(leaks(text)).toBe(false);
    }
  });

  it.each(BAD_VARIABLES)('over WebSocket: %s', async (_name, variables) => {
    const frames = await new Promise<string[]>((resolve, reject) => {
      const got: string[] = [];
      const ws = new WebSocket(`${t.gateway.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } })));
      ws.on('message', (data) => {
        const text = String(data);
        const msg = JSON.parse(text) as { type: string };
        if (msg.type === 'connection_ack') return void ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: PAY, variables } }));
        got.push(text);
        if (msg.type === 'complete' || msg.type === 'error') {
          ws.close();
          resolve(got);
        }
      });
      ws.on('error', reject);
    });
    expect(frames.join('\n')).toContain('[redacted]');
    expect(leaks(frames.join('\n'))).toBe(false);
  });
});

describe('the REST shim', () => {
  it.each([
    ['number and code as JSON numbers', { number: Number(NUMBER), security_code: Number(CVC) }],
    ['an object as the security code', { number: NUMBER, security_code: { value: CVC, number: NUMBER } }],
  ])('answers 422 with the field path and no card data: %s', async (_name, card) => {
    const res = await m.call('regular-payment', paymentBody(m, { card }));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors as object).some((k) => k.startsWith('card.'))).toBe(true);
    expect(leaks(res.text)).toBe(false);
  });
});

describe('log lines', () => {
  it('no line written during this file holds the number or the code', () => {
    expect(t.logLines.length).toBeGreaterThan(0);
    expect(t.logLines.filter(leaks)).toEqual([]);
  });
});
