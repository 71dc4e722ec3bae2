// The full card number and the security code are never stored, logged or returned (the
// saved card keeps first digits, last four, expiry and holder only). Every payment path runs with every simulator card and unusual security codes,
// then every text-like column of every table, the log lines and the answers are searched.
import { beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, completeThreeDs, followReturnPost, paymentBody } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';

// Codes that occur nowhere else in the data (no amount, reference or date uses them).
const SECURITY_CODES = ['987', '9876'];
const NUMBERS = [...Object.values(CARDS), '4111111111111112'];

const { t, merchant: m, receiver: shop } = useGateway({ merchant: true, receiver: true });
let reference = 100;
/** Every HTTP answer the gateway gave in this file: REST bodies and checkout pages. */
const answers: string[] = [];

beforeAll(() => exerciseEveryPath(), 120_000);

async function send(operation: string, body: unknown, headers?: Record<string, string>) {
  const res = await m.call(operation, body, { headers });
  answers.push(res.text);
  return res;
}

function cardOf(number: string, i: number, extra: Record<string, unknown> = {}) {
  return { number, security_code: SECURITY_CODES[i % 2], holder_name: 'KART SAHIBI', ...extra };
}

async function exerciseEveryPath(): Promise<void> {
  for (const [i, number] of NUMBERS.entries()) {
    // regular-payment, with storage asked for, then refund and cancel where it was taken
    const regular = await send('regular-payment', paymentBody(m, { transaction: { channel_reference: `CD-${reference++}` }, card: cardOf(number, i, { should_save: true }) }));
    if (regular.body.result?.successful) {
      await send('refund-payment', { transaction: { token: regular.body.transaction.token }, amount: '10.00' });
      const second = await send('regular-payment', paymentBody(m, { transaction: { channel_reference: `CD-${reference++}` }, card: cardOf(number, i + 1) }));
      await send('cancel-payment', { transaction: { token: second.body.transaction.token } });
    }

    // secure-payment, approved and declined on the bank page, with the return POST
    for (const outcome of ['approve', 'decline'] as const) {
      const start = await send('secure-payment', paymentBody(m, { transaction: { channel_reference: `CD-${reference++}`, callback_url: `${shop.url}/cb` }, card: cardOf(number, i) }));
      if (!start.body.result?.redirect_url) continue;
      const threeDs = await completeThreeDs(start.body.result.redirect_url, outcome);
      answers.push(threeDs.pageHtml, threeDs.returnHtml ?? '');
      if (threeDs.returnUrl) await followReturnPost(threeDs.returnUrl, threeDs.returnToken!);
      await send('retrieve-payment', { transaction: { token: start.body.transaction.token } });
    }

    // a 3D payment left to expire
    await send('secure-payment', paymentBody(m, { transaction: { channel_reference: `CD-${reference++}` }, card: cardOf(number, i + 1) }));

    // with an Idempotency-Key (the stored answer is a table row too)
    await send('regular-payment', paymentBody(m, { transaction: { channel_reference: `CD-${reference++}` }, card: cardOf(number, i) }), { 'Idempotency-Key': `cd-${i}` });

    // rejected requests that carry the card: a validation error, and wrongly typed card fields
    await send('regular-payment', paymentBody(m, { transaction: { amount: '1.234' }, card: cardOf(number, i) }));
    await send('regular-payment', paymentBody(m, { card: { ...cardOf(number, i), number: Number(number), security_code: Number(SECURITY_CODES[i % 2]) } }));
    await send('secure-payment', paymentBody(m, { transaction: { callback_url: 'ftp://x' }, card: cardOf(number, i, { expiry_month: '13' }) }));
  }
  t.clock.advance(15 * 60 * 1000 + 1000);
  await runJobsDueBy(t);
  await send('retrieve-payments', {});
}

interface Column {
  table_schema: string;
  table_name: string;
  column_name: string;
}

/** Columns holding text in any form: text, varchar, char, json, jsonb and arrays. */
async function textColumns(client: pg.Client): Promise<Column[]> {
  const res = await client.query<Column>(
    `SELECT table_schema, table_name, column_name FROM information_schema.columns
      WHERE table_schema IN ('public', 'agenda')
        AND (data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED'))
      ORDER BY table_schema, table_name, column_name`,
  );
  return res.rows;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** A security code standing alone, not as part of a UUID, a longer number or a time. */
const codePattern = (code: string) => `(^|[^0-9A-Za-z.:-])${code}($|[^0-9A-Za-z.])`;
const codeRegExp = (code: string) => new RegExp(codePattern(code));

describe('no full card number or security code is kept', () => {
  it('in any table column', async () => {
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      const columns = await textColumns(client);
      // Guards the scan itself: the tables it must cover are among the columns found.
      expect(columns.map((c) => `${c.table_name}.${c.column_name}`)).toEqual(
        expect.arrayContaining(['Payment.cardFirstDigits', 'Payment.cardHolderName', 'IdempotencyRecord.responseBody', 'OutboxEvent.kind', 'agenda_jobs.data']),
      );
      const hits: string[] = [];
      for (const c of columns) {
        const column = `${quote(c.table_schema)}.${quote(c.table_name)}`;
        const value = `${quote(c.column_name)}::text`;
        for (const number of NUMBERS) {
          const found = await client.query(`SELECT count(*)::int AS n FROM ${column} WHERE strpos(${value}, $1) > 0`, [number]);
          if (found.rows[0].n > 0) hits.push(`${c.table_name}.${c.column_name} holds ${number}`);
        }
        for (const code of SECURITY_CODES) {
          const found = await client.query(`SELECT count(*)::int AS n FROM ${column} WHERE ${value} ~ $1`, [codePattern(code)]);
          if (found.rows[0].n > 0) hits.push(`${c.table_name}.${c.column_name} holds security code ${code}`);
        }
      }
      expect(hits).toEqual([]);
      // The paths above did write card-derived data, so the scan looked at real rows.
      const sample = await client.query(`SELECT "cardFirstDigits", "cardLastFourDigits" FROM "Payment" WHERE "cardLastFourDigits" = '1111' LIMIT 1`);
      expect(sample.rows[0]).toEqual({ cardFirstDigits: '41111111', cardLastFourDigits: '1111' });
    } finally {
      await client.end();
    }
  });

  it('in the server log', () => {
    expect(t.logLines.length).toBeGreaterThan(0);
    for (const line of t.logLines) {
      for (const number of NUMBERS) expect(line).not.toContain(number);
      for (const code of SECURITY_CODES) expect(line).not.toMatch(codeRegExp(code));
    }
  });

  it('in any answer: REST bodies, the bank page and the return form', () => {
    expect(answers.length).toBeGreaterThan(50);
    for (const text of answers) {
      for (const number of NUMBERS) expect(text).not.toContain(number);
      for (const code of SECURITY_CODES) expect(text).not.toMatch(codeRegExp(code));
    }
  });
});
