// The shopper's address a hosted page's risk decision reads: the connection's, and behind
// TRUST_PROXY the last X-Forwarded-For entry (the one the proxy appended), never one the client made up.
import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { clientAddress } from '../../src/http/client-address.ts';

const request = (forwarded?: string) => ({ socket: { remoteAddress: '127.0.0.1' }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as IncomingMessage;

describe('clientAddress', () => {
  it('without TRUST_PROXY: the connection, whatever the header says', () => {
    expect(clientAddress(request('203.0.113.9'), false)).toBe('127.0.0.1');
  });

  it('behind a proxy: the last entry, which the proxy wrote', () => {
    expect(clientAddress(request('10.0.0.1, 203.0.113.9'), true)).toBe('203.0.113.9');
    expect(clientAddress(request('2001:db8::1'), true)).toBe('2001:db8::1');
  });

  it('behind a proxy without a usable header: the connection', () => {
    expect(clientAddress(request(), true)).toBe('127.0.0.1');
    expect(clientAddress(request('203.0.113.9, not-an-address'), true)).toBe('127.0.0.1');
  });
});
