// The bank's callback (POST /checkout/3ds/callback/<payment>) and the redirect instruction the
// 3D page serves. Only the bank's verified answer for this payment, while it still waits on an
// opened page, completes it; a forged, altered, replayed, late or other payment's callback shows
// an error page and writes nothing.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { acsAnswerOf, autoPostForm, paymentBody, postCallback, visitAcs } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { sealFor } from '../../src/domain/secrets.ts';
import { THREE_DS_CARD_PURPOSE } from '../../src/domain/payments/attempt.ts';

const { t, merchant: m, receiver: shop } = useGateway({ merchant: true, receiver: true });
let reference = 9000;

async function start() {
  const body = paymentBody(m, { transaction: { channel_reference: `CB-${reference++}`, callback_url: `${shop.url}/payment-return` } });
  const res = await m.call('secure-payment', body);
  expect(res.status).toBe(200);
  return { token: res.body.transaction.token as string, redirectUrl: res.body.result.redirect_url as string };
}

const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const callbackOf = (id: string) => `${t.gateway.baseUrl}/checkout/3ds/callback/${id}`;

/** Everything a callback could change: status, 3D columns, settlement, events. */
async function snapshot(id: string) {
  const p = await row(id);
  return { status: p.status, token: p.threeDsToken, answeredAt: p.threeDsAnsweredAt, completedAt: p.completedAt, errorCode: p.errorCode, events: await eventsOf(t, id) };
}

describe('the bank callback', () => {
  it('refuses a forged signature with an error page and writes nothing; the real answer still completes it', async () => {
    const started = await start();
    await visitAcs(started.redirectUrl, null);
    const real = await acsAnswerOf(t.gateway.services.db, started.token, 'approve');
    expect(real.callbackUrl).toBe(callbackOf(started.token));
    const before = await snapshot(started.token);

    const forged = await postCallback(real.callbackUrl, { ...real.fields, signature: 'f'.repeat(64) });
    expect(forged.status).toBe(400);
    expect(forged.html).not.toContain('transaction_token');
    expect(await snapshot(started.token)).toEqual(before);

    const done = await postCallback(real.callbackUrl, real.fields);
    expect(done.status).toBe(200);
    expect(autoPostForm(done.html)).toMatchObject({ id: 'return', action: `${shop.url}/payment-return`, fields: { transaction_token: started.token } });
    expect((await row(started.token)).status).toBe('successful');
  });

  it('refuses a decline whose outcome was turned into an approval', async () => {
    const started = await start();
    await visitAcs(started.redirectUrl, null);
    const declined = await acsAnswerOf(t.gateway.services.db, started.token, 'decline');
    const before = await snapshot(started.token);

    const altered = await postCallback(declined.callbackUrl, { ...declined.fields, outcome: 'approve' });
    expect(altered.status).toBe(400);
    expect(await snapshot(started.token)).toEqual(before);
  });

  it("refuses another payment's answer posted to this payment's address", async () => {
    const mine = await start();
    const other = await start();
    await visitAcs(mine.redirectUrl, null);
    await visitAcs(other.redirectUrl, null);
    const othersAnswer = await acsAnswerOf(t.gateway.services.db, other.token, 'approve');
    const before = await snapshot(mine.token);

    const crossed = await postCallback(callbackOf(mine.token), othersAnswer.fields);
    expect(crossed.status).toBe(400);
    expect(await snapshot(mine.token)).toEqual(before);
    expect((await row(other.token)).status).toBe('started');
  });

  it('refuses a replayed callback after completion: 409, the settlement and its one event unchanged', async () => {
    const started = await start();
    await visitAcs(started.redirectUrl, null);
    const answer = await acsAnswerOf(t.gateway.services.db, started.token, 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const settled = await snapshot(started.token);
    expect(settled.events).toEqual(['transaction.successful']);

    const replayed = await postCallback(answer.callbackUrl, answer.fields);
    expect(replayed.status).toBe(409);
    expect(replayed.html).not.toContain('transaction_token');
    expect(await snapshot(started.token)).toEqual(settled);
  });

  it('refuses a callback after the payment expired (410) and one before its page was opened (409)', async () => {
    const unopened = await start();
    const early = await acsAnswerOf(t.gateway.services.db, unopened.token, 'approve');
    const before = await snapshot(unopened.token);
    expect((await postCallback(early.callbackUrl, early.fields)).status).toBe(409);
    expect(await snapshot(unopened.token)).toEqual(before);

    t.clock.advance(15 * 60 * 1000 + 1000);
    await runJobsDueBy(t);
    const expired = await snapshot(unopened.token);
    expect(expired.status).toBe('expired');
    const late = await postCallback(early.callbackUrl, early.fields);
    expect(late.status).toBe(410);
    expect(await snapshot(unopened.token)).toEqual(expired);
  });

  it('answers 404 for a payment that does not exist and for a callback without fields', async () => {
    expect((await postCallback(callbackOf('00000000-0000-4000-8000-000000000000'), { reference: 'x', outcome: 'approve', signature: 'y' })).status).toBe(404);
    const started = await start();
    await visitAcs(started.redirectUrl, null);
    const before = await snapshot(started.token);
    expect((await postCallback(callbackOf(started.token), {})).status).toBe(400);
    expect(await snapshot(started.token)).toEqual(before);
  });
});

describe('the redirect instruction', () => {
  it('sends the browser on to the ACS address (url)', async () => {
    const started = await start();
    const page = await fetch(started.redirectUrl, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toMatch(new RegExp(`^${t.gateway.baseUrl}/simulator/acs/`));
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it("posts a bank's 3D gate form at once (form), its fields escaped", async () => {
    const started = await start();
    await t.gateway.services.db.payment.update({
      where: { id: started.token },
      data: { threeDsRedirect: { kind: 'form', action: 'https://3d.bank.example/gate', fields: { PaReq: 'a"b<c>', TermUrl: callbackOf(started.token) } } },
    });
    const page = await fetch(started.redirectUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(autoPostForm(html)).toEqual({ id: 'bank', action: 'https://3d.bank.example/gate', fields: { PaReq: 'a"b<c>', TermUrl: callbackOf(started.token) } });
    expect(html).not.toContain('a"b<c>');
    expect(page.headers.get('content-security-policy')).toContain('form-action \'self\' https://3d.bank.example');
  });

  it("joins a bank form's card fields from the sealed address, never from the row; a tampered or missing seal leaves the page unused", async () => {
    const started = await start();
    const token = started.redirectUrl.split('/').pop()!;
    await t.gateway.services.db.payment.update({
      where: { id: started.token },
      data: { threeDsRedirect: { kind: 'form', action: 'https://3d.bank.example/gate', fields: { oid: 'X1' }, sealedCard: true } },
    });
    const sealed = sealFor(t.gateway.masterKey, THREE_DS_CARD_PURPOSE, token, JSON.stringify({ pan: '4111111111111111', cv2: '123' }));
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect((await fetch(`${started.redirectUrl}?card=${tampered}`)).status).toBe(404);
    expect((await fetch(started.redirectUrl)).status).toBe(404);
    // Another page's seal does not open here either.
    const other = sealFor(t.gateway.masterKey, THREE_DS_CARD_PURPOSE, '00000000-0000-4000-8000-000000000000', JSON.stringify({ pan: '4111111111111111' }));
    expect((await fetch(`${started.redirectUrl}?card=${other}`)).status).toBe(404);
    expect((await row(started.token)).threeDsOpenedAt).toBeNull();

    const page = await fetch(`${started.redirectUrl}?card=${sealed}`);
    expect(page.status).toBe(200);
    expect(autoPostForm(await page.text())).toEqual({ id: 'bank', action: 'https://3d.bank.example/gate', fields: { oid: 'X1', pan: '4111111111111111', cv2: '123' } });
    expect(JSON.stringify(await row(started.token), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).not.toContain('4111111111111111');
  });

  it("serves the provider's own page as it is (html)", async () => {
    const started = await start();
    const html = '<!doctype html><html><body><form id="iyzico-3ds-form" action="https://acs.example/auth" method="post"></form><script>document.getElementById("iyzico-3ds-form").submit();</script></body></html>';
    await t.gateway.services.db.payment.update({ where: { id: started.token }, data: { threeDsRedirect: { kind: 'html', html } } });
    const page = await fetch(started.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(html);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // Offered once, whatever the instruction.
    expect((await fetch(started.redirectUrl)).status).toBe(409);
  });
});
