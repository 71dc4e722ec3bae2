// The payment input is parsed with zod's compiled clones of its schemas (payments/input.ts): on
// valid bodies they must give what the runtime parser gives, and on invalid ones the same issues.
import { describe, expect, it } from 'vitest';
import { compiledInputs, parsePaymentInput, regularInput, secureInput } from '../../src/domain/payments/input.ts';
import { parseInput } from '../../src/domain/validation.ts';
import { ValidationError } from '../../src/domain/errors.ts';

const CHANNEL = '7b1c6a8e-3f55-4c3e-9a57-1a2b3c4d5e6f';
const card = { holderName: 'AYSE YILMAZ', number: '4111111111111111', securityCode: '123', expiryMonth: '12', expiryYear: '2030' };
const base = {
  transaction: { channelToken: CHANNEL, channelReference: 'ORDER-1', amount: '100.00', installmentNumber: 1, ip: '203.0.113.7', callbackUrl: 'https://shop.example/cb' },
  customer: { channelReference: 'C-1', firstname: 'Ayşe' },
  card,
};
type Body = typeof base & Record<string, unknown>;
const change = (over: (b: Body) => void): Body => {
  const b = structuredClone(base) as Body;
  over(b);
  return b;
};

const valid: Array<[string, Body]> = [
  ['the bench body', base],
  ['amount as a number, currency given, base amount', change((b) => Object.assign(b.transaction, { amount: 250.5, currency: 'USD', baseAmount: '200' }))],
  ['optional fields null', change((b) => Object.assign(b.transaction, { currency: null, paymentProviderToken: null, baseAmount: null }))],
  ['card.should_save true, every customer field', change((b) => {
    Object.assign(b.card, { shouldSave: true });
    Object.assign(b.customer, { lastname: 'Yılmaz', email: 'a@b.example', phone: '+90', address: 'x', district: 'y', province: 'z', country: 'TR' });
  })],
  ['a saved card instead of a card', change((b) => {
    Object.assign(b.transaction, { savedCardToken: CHANNEL });
    delete (b as Record<string, unknown>).card;
  })],
];

const invalid: Array<[string, Body]> = [
  ['amount not a number', change((b) => Object.assign(b.transaction, { amount: '1,00' }))],
  ['installments out of range and a bad uuid', change((b) => Object.assign(b.transaction, { installmentNumber: 13, channelToken: 'x' }))],
  ['no card, no saved card', change((b) => delete (b as Record<string, unknown>).card)],
  ['customer missing', change((b) => delete (b as Record<string, unknown>).customer)],
  ['wrong types', change((b) => Object.assign(b.card, { number: 4111, shouldSave: 'yes' }))],
];

function outcome(parse: () => unknown): unknown {
  try {
    return { ok: parse() };
  } catch (err) {
    if (err instanceof ValidationError) return { issues: err.issues };
    throw err;
  }
}

describe('payment input: compiled schemas parse as the runtime does', () => {
  for (const kind of ['secure', 'regular'] as const) {
    const schema = kind === 'secure' ? secureInput : regularInput;
    for (const [name, body] of [...valid, ...invalid]) {
      it(`${kind}: ${name}`, () => {
        const runtime = outcome(() => parseInput(schema, body));
        const compiled = outcome(() => parseInput(compiledInputs[kind], body));
        expect(compiledInputs[kind]).not.toBe(schema);
        expect(compiled).toEqual(runtime);
      });
    }
  }

  it('gives the parsed values, defaults and transforms included', () => {
    const input = parsePaymentInput('regular', base);
    expect(input.transaction.amount).toBe(10_000n);
    expect(input.transaction.currency).toBe('TRY');
    expect(input.card?.shouldSave).toBe(false);
  });

  it('reports the runtime parser\'s issues with their paths, and its own cross-field checks', () => {
    expect(outcome(() => parsePaymentInput('regular', invalid[1]![1]))).toEqual({ issues: expect.arrayContaining([expect.objectContaining({ path: ['transaction', 'channelToken'] })]) });
    expect(outcome(() => parsePaymentInput('regular', invalid[2]![1]))).toEqual({ issues: [expect.objectContaining({ path: ['card'], code: 'card_required' })] });
  });
});
