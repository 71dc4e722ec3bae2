// `npm run emulator -- interpos` as a developer runs it: a real child process that takes the
// merchant as flags, prints it with its addresses, accepts a sale from a connector given those
// credentials and refuses one given others, and stops on SIGTERM.
import { expect, it } from 'vitest';
import { interPosProvider } from '../../src/providers/interpos/index.ts';
import { useProcessGroups } from '../helpers/emulator-process.ts';
import { INTERPOS_CARDS } from './fixtures.ts';

const processes = useProcessGroups();
const deps = { now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: () => {} };

it('accepts the merchant given as flags, refuses other credentials, and prints them with its addresses', async () => {
  const run = await processes.emulator(['interpos', '--port', '0', '--shop-code', '7777', '--user-code', 'DEVAPI', '--user-password', 'dev-pass', '--store-key', 'dev-key']);
  const url = /listening on (\S+)/.exec(run.output())?.[1];
  expect(run.printed('3D gate and API')).toBe(`${url}/mpi/Default.aspx`);
  expect(run.printed('3D Host page')).toBe(`${url}/mpi/3DHost.aspx`);
  expect([run.printed('shop code'), run.printed('user code'), run.printed('user password'), run.printed('store key')]).toEqual(['7777', 'DEVAPI', 'dev-pass', 'dev-key']);

  const connect = (userPassword: string) =>
    interPosProvider(deps).connect({ id: 'acc', credentials: { shop_code: '7777', user_code: 'DEVAPI', user_password: userPassword, store_key: 'dev-key' }, settings: { api_url: run.printed('3D gate and API') } });
  const sale = (password: string) => connect(password).charge({ idempotencyKey: `${crypto.randomUUID()}:charge`, amount: 1000n, currency: 'TRY', installmentNumber: 1, card: { holderName: 'A', number: INTERPOS_CARDS.approved, securityCode: '592', expiryMonth: '12', expiryYear: '2030' } });
  expect(await sale('dev-pass')).toMatchObject({ status: 'succeeded' });
  expect(await sale('3')).toMatchObject({ status: 'error', providerCode: '81/B810002' });

  expect(await run.stop()).toBe(0);
}, 90_000);
