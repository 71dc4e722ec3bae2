// `npm run emulator -- posnet` as a developer runs it: a real child process that takes the merchant
// as flags, prints it with its addresses, answers a sale made with those credentials through the
// connector and refuses another terminal; SIGTERM stops it.
import { expect, it } from 'vitest';
import { posnetProvider } from '../../src/providers/posnet/index.ts';
import { useProcessGroups } from '../helpers/emulator-process.ts';
import { POSNET_CARDS } from './fixtures.ts';

const processes = useProcessGroups();

it('accepts the merchant given as flags, refuses another terminal, and prints them with its addresses', async () => {
  const run = await processes.emulator(['posnet', '--port', '0', '--merchant-id', '6700000001', '--terminal-id', '67000002', '--posnet-id', '1010', '--enc-key', 'dev-key']);
  const url = /listening on (\S+)/.exec(run.output())?.[1];
  expect(run.printed('3-D service')).toBe(`${url}/3DSWebService/YKBPaymentService`);
  expect(run.printed('XML service')).toBe(`${url}/PosnetWebService/XML`);
  expect([run.printed('merchant id'), run.printed('terminal id'), run.printed('posnet id'), run.printed('enc key')]).toEqual(['6700000001', '67000002', '1010', 'dev-key']);

  const connect = (terminal: string) =>
    posnetProvider({ now: () => new Date(), baseUrl: () => '', key: () => Buffer.alloc(32), log: () => {} }).connect({
      id: 'a',
      credentials: { merchant_id: '6700000001', terminal_id: terminal, posnet_id: '1010', enc_key: 'dev-key' },
      settings: { api_url: run.printed('XML service'), gate_url: run.printed('3-D service') },
    });
  const sale = (terminal: string) => connect(terminal).charge({ idempotencyKey: `${crypto.randomUUID()}:charge`, amount: 500n, currency: 'TRY', installmentNumber: 1, card: { holderName: 'A', number: POSNET_CARDS.approved, expiryMonth: '12', expiryYear: '2030', securityCode: '000' } });
  expect(await sale('67000002')).toMatchObject({ status: 'succeeded' });
  expect(await sale('67000009')).toMatchObject({ status: 'error', providerCode: '0148' });
  expect(await run.stop()).toBe(0);
}, 90_000);
