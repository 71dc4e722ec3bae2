// A bank's virtual POS names the bank an account's settings choose (the dashboard shows it).
import { describe, expect, it } from 'vitest';
import { estProvider } from '../../src/providers/est/index.ts';
import { garantiProvider } from '../../src/providers/garanti/index.ts';
import { iyzicoProvider } from '../../src/providers/iyzico/index.ts';
import { bankNameOf, type ConnectorDeps } from '../../src/providers/registry.ts';

const deps: ConnectorDeps = { now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: () => {} };

describe('bankNameOf', () => {
  it("EST: the bank setting's bank; Garanti: itself; a provider that is no bank, or a bank EST does not list: null", () => {
    expect(bankNameOf(estProvider(deps), { bank: 'isbank', environment: 'test' })).toBe('İşbank');
    expect(bankNameOf(estProvider(deps), { bank: 'finansbank' })).toBe('QNB Finansbank');
    expect(bankNameOf(estProvider(deps), { bank: 'nobank' })).toBeNull();
    expect(bankNameOf(estProvider(deps), {})).toBeNull();
    expect(bankNameOf(garantiProvider(deps), { environment: 'test' })).toBe('Garanti BBVA');
    expect(bankNameOf(iyzicoProvider(deps), {})).toBeNull();
    expect(bankNameOf(undefined, null)).toBeNull();
  });
});
