// A secure-payment answer through a bank's 3D form carries the card sealed in its redirect
// address; the idempotency record keeps the answer without it, so no card data is written.
import { describe, expect, it } from 'vitest';
import { withoutSealedCard } from '../../src/domain/idempotency.ts';

describe('stored answers', () => {
  it('drop the sealed card of a 3D address and keep everything else', () => {
    const token = '6f0c2a8e-1b2c-4d3e-8f90-123456789abc';
    const body = JSON.stringify({ result: { successful: true, message: null, redirect_url: `http://gw/checkout/3ds/${token}?card=AbC-_123xyz` }, transaction: { token: 'x' } });
    expect(withoutSealedCard(body)).toBe(JSON.stringify({ result: { successful: true, message: null, redirect_url: `http://gw/checkout/3ds/${token}` }, transaction: { token: 'x' } }));
    const plain = JSON.stringify({ redirect_url: `http://gw/checkout/3ds/${token}` });
    expect(withoutSealedCard(plain)).toBe(plain);
  });
});
