import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';

const { merchant: m } = useGateway({ merchant: true });

describe('retrieve-bin smoke', () => {
  it('answers a signed call with the BIN card and TRY installments', async () => {
    const res = await m.call('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '100.00' } });
    expect(res.status).toBe(200);
    expect(res.body.card.scheme).toBe('visa');
    expect(res.body.installments).toHaveLength(12);
  });
});
