// The 3D Secure flow over HTTP (contract: secure-payment, retrieve-payment, States "API payment",
// Limits "3D redirect address"): start, the simulated bank page, the return POST to the
// merchant's callback server, retrieve-payment; the single-use address, the 15-minute expiry and
// the end of an opened page that was never answered (30 minutes after the start).
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { CARDS, acsAnswerOf, completeThreeDs, followReturnPost, paymentBody, postCallback } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf } from '../helpers/rows.ts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const THIRTY_MINUTES = 30 * 60 * 1000;
const EXPIRED_MESSAGE = msg('payment_expired_3ds');
const ABANDONED_MESSAGE = msg('payment_abandoned_3ds');

const { t, merchant: m, receiver: shop } = useGateway({ merchant: true, receiver: true });
let reference = 5000;

async function start(over: Parameters<typeof paymentBody>[1] = {}) {
  const body = paymentBody(m, { ...over, transaction: { channel_reference: `ORDER-${reference++}`, callback_url: `${shop.url}/payment-return`, ...over.transaction } });
  const res = await m.call('secure-payment', body);
  expect(res.status).toBe(200);
  return { token: res.body.transaction.token as string, redirectUrl: res.body.result.redirect_url as string | null, body: res.body };
}

/** The payment's rows in Agenda's job table (its 3D timer). */
const jobsOf = async (token: string) =>
  t.gateway.services.db.$queryRaw<Array<{ name: string; nextRunAt: Date | null }>>`SELECT name, next_run_at AS "nextRunAt" FROM agenda.agenda_jobs WHERE data->>'paymentId' = ${token}`;

const retrieve = async (token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
/** Opens the redirect page; the browser follows it to the simulator's ACS page. */
const openPage = (url: string) => fetch(url).then(async (r) => ({ status: r.status, html: await r.text() }));
/** The ACS's signed answer for the payment, posted to its callback address as the browser does. */
const submit = async (paymentId: string, outcome: 'approve' | 'decline') => {
  const answer = await acsAnswerOf(t.gateway.services.db, paymentId, outcome);
  return postCallback(answer.callbackUrl, answer.fields);
};

describe('secure-payment approved on the 3D page', () => {
  it('sends the customer back to the callback with transaction_token and retrieve-payment says successful', async () => {
    // Given a started 3D payment
    const started = await start();
    expect(started.body.result).toEqual({ successful: true, message: null, redirect_url: `${t.gateway.baseUrl}/checkout/3ds/${started.redirectUrl!.split('/').pop()}` });
    expect(started.body.transaction).toEqual({ token: started.token, channel_token: m.channelToken, channel_reference: expect.stringMatching(/^ORDER-\d+$/) });
    expect(started.body.customer).toEqual({ channel_reference: 'CUST-1' });
    expect(started.body.conversion).toBeNull();
    expect('saved_card' in started.body).toBe(false);
    expect(await retrieve(started.token)).toEqual({ successful: false, message: '' });
    expect(await eventsOf(t, started.token)).toEqual([]);

    // When the customer opens the page, approves and the browser follows the return form
    const threeDs = await completeThreeDs(started.redirectUrl!, 'approve');
    expect(threeDs.pageStatus).toBe(200);
    expect(threeDs.pageHtml).toMatch(/<form method="post">/);
    expect(threeDs.pageHtml).toMatch(/name="outcome" value="approve"/);
    expect(threeDs.pageHtml).toMatch(/name="outcome" value="decline"/);
    expect(threeDs.returnUrl).toBe(`${shop.url}/payment-return`);
    const before = shop.requests.length;
    expect(await followReturnPost(threeDs.returnUrl!, threeDs.returnToken!)).toBe(200);

    // Then the merchant's server got the token and retrieve-payment reports success
    const received = shop.requests[before]!;
    expect(received.method).toBe('POST');
    expect(received.path).toBe('/payment-return');
    expect(new URLSearchParams(received.body).get('transaction_token')).toBe(started.token);
    expect(await retrieve(started.token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.successful']);
  });
});

describe('secure-payment with card.should_save', () => {
  it('answers saved_card null at the start: the card can only be stored after completion', async () => {
    const started = await start({ card: { should_save: true } });

    expect(started.body.result.successful).toBe(true);
    expect(started.body.saved_card).toBeNull();
  });
});

describe('secure-payment declined on the 3D page', () => {
  it('still returns the customer to the callback and retrieve-payment says failed with the 3D message', async () => {
    const started = await start();

    const threeDs = await completeThreeDs(started.redirectUrl!, 'decline');
    const before = shop.requests.length;
    expect(await followReturnPost(threeDs.returnUrl!, threeDs.returnToken!)).toBe(200);

    expect(new URLSearchParams(shop.requests[before]!.body).get('transaction_token')).toBe(started.token);
    expect(await retrieve(started.token)).toEqual({ successful: false, message: '3D doğrulama başarısız', error_code: '3ds_failed' });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.failed']);
  });
});

describe('secure-payment rejected by the provider at the start', () => {
  it.each([
    ['an expired card', { expiry_year: '2020' }, 'Kartın süresi dolmuş', 'expired_card'],
    ['a number failing the check digit', { number: '4111111111111112' }, 'Geçersiz kart numarası', 'invalid_card_number'],
  ])('answers 200 with successful false, the provider message and code, a token and no redirect_url (%s)', async (_name, card, text, code) => {
    const started = await start({ card });

    expect(started.body.result).toEqual({ successful: false, message: text, error_code: code, redirect_url: null });
    expect(started.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(await retrieve(started.token)).toEqual({ successful: false, message: text, error_code: code });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.failed']);
  });
});

describe('the redirect address works once', () => {
  it('refuses a second opening of the page', async () => {
    const started = await start();
    expect((await openPage(started.redirectUrl!)).status).toBe(200);

    const second = await openPage(started.redirectUrl!);

    expect(second.status).toBe(409);
    expect(second.html).toContain('yalnızca bir kez kullanılabilir');
  });

  it('refuses the page and a second answer after the payment was completed, and settles it once', async () => {
    const started = await start();
    await completeThreeDs(started.redirectUrl!, 'approve');

    const reopened = await openPage(started.redirectUrl!);
    const resubmitted = await submit(started.token, 'decline');

    expect(reopened.status).not.toBe(200);
    expect(resubmitted.status).not.toBe(200);
    expect(resubmitted.html).not.toContain('transaction_token');
    expect(await retrieve(started.token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.successful']);
  });

  it('completes once when the answer is submitted twice at the same time', async () => {
    const started = await start();
    expect((await openPage(started.redirectUrl!)).status).toBe(200);

    const answers = await Promise.all([submit(started.token, 'approve'), submit(started.token, 'approve')]);

    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.html.includes('name="transaction_token"'))).toHaveLength(1);
    expect(await eventsOf(t, started.token)).toEqual(['transaction.successful']);
  });

  it('does not complete a payment whose page was never opened', async () => {
    const started = await start();

    const answer = await submit(started.token, 'approve');

    expect(answer.status).not.toBe(200);
    expect(await retrieve(started.token)).toEqual({ successful: false, message: '' });
  });

  it('answers 404 for an address that was never issued', async () => {
    const page = await openPage(`${t.gateway.baseUrl}/checkout/3ds/00000000-0000-4000-8000-000000000000`);
    expect(page.status).toBe(404);
  });
});

describe('expiry after 15 minutes', () => {
  it('the expire-payment job expires a payment whose page was not opened in time', async () => {
    // Given a 3D payment started now
    const started = await start();

    // When 15 minutes and a second pass on the gateway's clock and the due jobs run
    t.clock.advance(FIFTEEN_MINUTES + 1000);
    expect(await runJobsDueBy(t)).toBeGreaterThan(0);

    // Then it is expired, with its event, and the page is gone
    expect(await retrieve(started.token)).toEqual({ successful: false, message: EXPIRED_MESSAGE, error_code: 'payment_expired_3ds' });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.expired']);
    const page = await openPage(started.redirectUrl!);
    expect(page.status).toBe(410);
    // Its timer, done, left no row behind: the job table does not grow with every 3D payment.
    expect(await jobsOf(started.token)).toEqual([]);
  });

  it('opening the page after 15 minutes shows the expired page and expires the payment once', async () => {
    const started = await start();
    t.clock.advance(FIFTEEN_MINUTES + 1000);

    const page = await openPage(started.redirectUrl!);

    expect(page.status).toBe(410);
    expect(page.html).toContain('Süre doldu');
    expect(await retrieve(started.token)).toEqual({ successful: false, message: EXPIRED_MESSAGE, error_code: 'payment_expired_3ds' });
    // The job, when it comes, finds nothing left to do.
    await runJobsDueBy(t);
    expect(await eventsOf(t, started.token)).toEqual(['transaction.expired']);
  });

  it('a page opened just before 15 minutes still completes the payment', async () => {
    const started = await start();
    t.clock.advance(FIFTEEN_MINUTES - 1000);

    const threeDs = await completeThreeDs(started.redirectUrl!, 'approve');

    expect(threeDs.pageStatus).toBe(200);
    expect(threeDs.returnToken).toBe(started.token);
    expect(await retrieve(started.token)).toEqual({ successful: true, message: null });
  });

  it('a payment completed in time is not expired when its job runs', async () => {
    const started = await start();
    await completeThreeDs(started.redirectUrl!, 'approve');

    t.clock.advance(FIFTEEN_MINUTES + 1000);
    await runJobsDueBy(t);

    expect(await retrieve(started.token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.successful']);
  });

  it('a payment whose page was opened in time is not expired while the customer answers', async () => {
    const started = await start();
    expect((await openPage(started.redirectUrl!)).status).toBe(200);

    t.clock.advance(FIFTEEN_MINUTES + 1000);
    await runJobsDueBy(t);

    expect(await retrieve(started.token)).toEqual({ successful: false, message: '' });
    expect(await eventsOf(t, started.token)).toEqual([]);
    // The timer rescheduled itself to watch the opened page: its row stays, due later.
    const [job, ...more] = await jobsOf(started.token);
    expect(more).toEqual([]);
    expect(job?.name).toBe('expire-payment');
    expect(job?.nextRunAt).not.toBeNull();
  });
});

describe('an opened page is given up 30 minutes after the start', () => {
  const db = () => t.gateway.services.db;
  /** What completeThreeDs leaves when its process dies while the answer is at the bank. */
  const answerLostAtTheBank = (token: string) => db().payment.update({ where: { id: token }, data: { threeDsToken: null, threeDsAnsweredAt: t.clock.now() } });

  it('fails a payment whose page was opened but never answered, with transaction.failed, and refuses a late answer', async () => {
    // Given a 3D payment whose page the customer opened and left
    const started = await start();
    expect((await openPage(started.redirectUrl!)).status).toBe(200);

    // When 30 minutes and a second pass after the start and the due jobs run
    t.clock.advance(THIRTY_MINUTES + 1000);
    await runJobsDueBy(t);

    // Then it failed with its message and event, and a late approval changes nothing
    expect(await retrieve(started.token)).toEqual({ successful: false, message: ABANDONED_MESSAGE, error_code: 'payment_abandoned_3ds' });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.failed']);
    const late = await submit(started.token, 'approve');
    expect(late.status).toBe(409);
    expect(late.html).not.toContain('transaction_token');
    expect(await retrieve(started.token)).toEqual({ successful: false, message: ABANDONED_MESSAGE, error_code: 'payment_abandoned_3ds' });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.failed']);
  });

  it('answers retrieve-payment in English with Accept-Language en', async () => {
    const started = await start();
    await openPage(started.redirectUrl!);
    t.clock.advance(THIRTY_MINUTES + 1000);
    await runJobsDueBy(t);

    const res = await m.call('retrieve-payment', { transaction: { token: started.token } }, { headers: { 'Accept-Language': 'en' } });

    expect(res.body.result).toEqual({ successful: false, message: 'The customer did not complete 3D verification within 30 minutes.', error_code: 'payment_abandoned_3ds' });
  });

  it('does not end a payment before its 30 minutes', async () => {
    const started = await start();
    await openPage(started.redirectUrl!);

    t.clock.advance(THIRTY_MINUTES - 1000);
    await runJobsDueBy(t);

    expect(await retrieve(started.token)).toEqual({ successful: false, message: '' });
    const answered = await submit(started.token, 'approve');
    expect(answered.status).toBe(200);
    expect(await eventsOf(t, started.token)).toEqual(['transaction.successful']);
  });

  it('settles once when the timer and a last-second answer race', async () => {
    const started = await start();
    await openPage(started.redirectUrl!);
    t.clock.advance(THIRTY_MINUTES + 1000);

    const [answer] = await Promise.all([submit(started.token, 'approve'), runJobsDueBy(t)]);

    const events = await eventsOf(t, started.token);
    expect(events).toHaveLength(1);
    const settled = await retrieve(started.token);
    if (events[0] === 'transaction.successful') {
      expect(answer.status).toBe(200);
      expect(settled).toEqual({ successful: true, message: null });
    } else {
      expect(answer.status).toBe(409);
      expect(settled).toEqual({ successful: false, message: ABANDONED_MESSAGE, error_code: 'payment_abandoned_3ds' });
    }
  });

  it.each([
    ['approved', CARDS.approved, 'transaction.successful', { successful: true, message: null }],
    ['declined', CARDS.insufficientFunds, 'transaction.failed', { successful: false, message: 'Yetersiz bakiye', error_code: 'insufficient_funds' }],
  ])('asks the bank about an answer that never came back and settles with what it %s', async (_name, number, event, result) => {
    // Given a page answered while its answer was lost on the way back from the bank
    const started = await start({ card: { number } });
    await openPage(started.redirectUrl!);
    await answerLostAtTheBank(started.token);

    // When the payment is due to be given up
    t.clock.advance(THIRTY_MINUTES + 1000);
    await runJobsDueBy(t);

    // Then the bank's own answer settles it, with the owner's event
    expect(await retrieve(started.token)).toEqual(result);
    expect(await eventsOf(t, started.token)).toEqual([event]);
  });

  it('waits two minutes for the bank after an answer sent just before the 30 minutes', async () => {
    const started = await start();
    await openPage(started.redirectUrl!);
    t.clock.advance(THIRTY_MINUTES - 60_000);
    await answerLostAtTheBank(started.token);

    t.clock.advance(61_000);
    await runJobsDueBy(t);
    expect(await retrieve(started.token)).toEqual({ successful: false, message: '' });

    t.clock.advance(60_000);
    await runJobsDueBy(t);
    expect(await retrieve(started.token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.successful']);
  });
});
