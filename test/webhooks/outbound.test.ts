// Where webhooks may go (contract: a public address starting with https). In production an address
// must be https and must not lead into private networks; outside production http to localhost is
// allowed for local receivers. Checked when an address is added and at every delivery.
import { describe, expect, it } from 'vitest';
import { destinationAllowed, isBlockedAddress, urlAllowed } from '../../src/domain/webhooks/outbound.ts';
import { postWebhook } from '../../src/domain/webhooks/send.ts';
import { startReceiver } from '../helpers/receiver.ts';

const production = { production: true };

describe('urlAllowed', () => {
  it('accepts only https in production', () => {
    expect(urlAllowed('https://merchant.example/hooks', production)).toBe(true);
    expect(urlAllowed('https://merchant.example:8443/hooks?x=1', production)).toBe(true);
    expect(urlAllowed('http://merchant.example/hooks', production)).toBe(false);
    expect(urlAllowed('http://127.0.0.1:8080/hooks', production)).toBe(false);
    expect(urlAllowed('http://localhost/hooks', production)).toBe(false);
    expect(urlAllowed('ftp://merchant.example/hooks', production)).toBe(false);
    expect(urlAllowed('https://user:secret@merchant.example/hooks', production)).toBe(false);
    expect(urlAllowed('not a url', production)).toBe(false);
  });

  it('outside production also accepts http to this machine, and nothing else over http', () => {
    const dev = { production: false };
    expect(urlAllowed('http://127.0.0.1:8080/hooks', dev)).toBe(true);
    expect(urlAllowed('http://localhost:3000/hooks', dev)).toBe(true);
    expect(urlAllowed('http://[::1]:3000/hooks', dev)).toBe(true);
    expect(urlAllowed('http://merchant.example/hooks', dev)).toBe(false);
    expect(urlAllowed('http://10.0.0.5/hooks', dev)).toBe(false);
  });
});

describe('destinationAllowed in production', () => {
  it('refuses https addresses that lead into private, loopback, link-local or metadata ranges', async () => {
    for (const url of [
      'https://127.0.0.1/h',
      'https://10.1.2.3/h',
      'https://172.16.0.1/h',
      'https://192.168.1.1/h',
      'https://100.64.0.1/h',
      'https://169.254.169.254/latest/meta-data',
      'https://0.0.0.0/h',
      'https://[::1]/h',
      'https://[fd00::1]/h',
      'https://[fe80::1]/h',
      'https://[::ffff:127.0.0.1]/h',
      'https://[::ffff:a9fe:a9fe]/h',
      'https://localhost/h',
    ]) {
      expect(await destinationAllowed(url, production), url).toBe(false);
    }
  });

  it('accepts public IPv4 and IPv6 destinations', async () => {
    expect(await destinationAllowed('https://93.184.215.14/hooks', production)).toBe(true);
    expect(await destinationAllowed('https://8.8.8.8/hooks', production)).toBe(true);
    expect(await destinationAllowed('https://172.32.0.1/hooks', production)).toBe(true);
    expect(await destinationAllowed('https://[2606:4700:4700::1111]/hooks', production)).toBe(true);
    expect(await destinationAllowed('https://[::ffff:8.8.8.8]/hooks', production)).toBe(true);
  });

  it('outside production the address is not resolved', async () => {
    expect(await destinationAllowed('https://127.0.0.1/h', { production: false })).toBe(true);
    expect(await destinationAllowed('http://127.0.0.1:1/h', { production: false })).toBe(true);
  });
});

describe('isBlockedAddress', () => {
  it('judges IPv4 by the IPv4 ranges only (a public IPv4 address is not blocked)', () => {
    expect(isBlockedAddress('8.8.8.8')).toBe(false);
    expect(isBlockedAddress('1.1.1.1')).toBe(false);
    expect(isBlockedAddress('127.0.0.1')).toBe(true);
    expect(isBlockedAddress('::ffff:8.8.8.8')).toBe(false);
    expect(isBlockedAddress('0:0:0:0:0:ffff:7f00:1')).toBe(true);
    expect(isBlockedAddress('not-an-ip')).toBe(true);
  });
});

describe('the connect-time check in production', () => {
  it('refuses to connect when the host name resolves to a private address', async () => {
    const r = await startReceiver();
    try {
      const port = new URL(r.url).port;
      const result = await postWebhook(`http://localhost:${port}/h`, { 'Content-Type': 'application/json' }, '{}', { timeoutMs: 2_000, production: true });
      expect(result.httpStatus).toBeNull();
      expect(result.error).toMatch(/private address/);
      expect(r.requests).toHaveLength(0);
      const dev = await postWebhook(`http://127.0.0.1:${port}/h`, { 'Content-Type': 'application/json' }, '{}', { timeoutMs: 2_000, production: false });
      expect(dev.httpStatus).toBe(200);
    } finally {
      await r.close();
    }
  });
});
