// The card-testing guard's card fingerprint: HMAC-SHA256 of the number under a key derived from
// the master key for one workspace (HKDF-SHA256), recomputed here from Node's primitives so a
// change of key handling (the fingerprint keeps its key as a KeyObject) cannot change the value
// every stored attempt and decline is matched on.
import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cardFingerprint } from '../../src/domain/risk/fingerprint.ts';

const master = Buffer.from('8f1c2b3a4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8', 'hex');
const workspaceA = '3f1e9c52-7a4b-4c1d-9e2f-0a1b2c3d4e5f';
const workspaceB = 'a0b1c2d3-e4f5-4061-8273-94a5b6c7d8e9';

function expected(workspaceId: string, card: string): string {
  const key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `payment-gateway:card-fingerprint:${workspaceId}`, 32));
  return createHmac('sha256', key).update(card).digest('base64url');
}

describe('cardFingerprint', () => {
  it('is the HMAC-SHA256 of the number under the workspace key derived from the master key', () => {
    expect(cardFingerprint(master, workspaceA, '4111111111111111')).toBe(expected(workspaceA, '4111111111111111'));
    // A second call is served by the cached key and reads the same.
    expect(cardFingerprint(master, workspaceA, '4111111111111111')).toBe(expected(workspaceA, '4111111111111111'));
    expect(cardFingerprint(master, workspaceA, 'saved:card_ref_1')).toBe(expected(workspaceA, 'saved:card_ref_1'));
  });

  it('reads alike within a workspace and unlike across workspaces and master keys', () => {
    const a = cardFingerprint(master, workspaceA, '5528790000000008');
    expect(cardFingerprint(master, workspaceA, '5528790000000008')).toBe(a);
    expect(cardFingerprint(master, workspaceB, '5528790000000008')).not.toBe(a);
    expect(cardFingerprint(Buffer.alloc(32, 9), workspaceA, '5528790000000008')).not.toBe(a);
    expect(a).not.toContain('5528790000000008');
  });
});
