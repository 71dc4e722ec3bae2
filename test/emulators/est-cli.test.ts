// `npm run emulator -- est` as a developer runs it: a real child process that takes the merchant's
// credentials as flags (or EST_EMULATOR_* variables), prints them with its gate and API, accepts
// an XML Auth and a gate form made with them and refuses those made with others; SIGTERM stops it.
import { expect, it } from 'vitest';
import type { EstEmulator } from '../../emulators/est/server.ts';
import { useProcessGroups } from '../helpers/emulator-process.ts';
import { callApi, FAIL_URL, gateForm, parseAutoPost, postForm } from './est-client.ts';

const processes = useProcessGroups();

it('accepts the credentials given as flags, refuses others, and prints them with its addresses', async () => {
  const run = await processes.emulator(
    ['est', '--port', '0', '--client-id', '100200300', '--store-key', 'dev-store-key', '--api-password', 'dev-pass'],
    // A flag beats its variable; a variable stands in for a flag not given.
    { EST_EMULATOR_CLIENT_ID: '999999999', EST_EMULATOR_API_USER: 'env-user' },
  );
  const url = /listening on (\S+)/.exec(run.output())?.[1];
  expect(run.printed('3D gate')).toBe(`${url}/fim/est3Dgate`);
  expect(run.printed('XML API')).toBe(`${url}/fim/api`);
  expect([run.printed('client id'), run.printed('store key'), run.printed('API user'), run.printed('API password')]).toEqual(['100200300', 'dev-store-key', 'env-user', 'dev-pass']);
  const emulator = { url, gateUrl: run.printed('3D gate'), apiUrl: run.printed('XML API'), clientId: '100200300', storeKey: 'dev-store-key', apiUser: 'env-user', apiPassword: 'dev-pass' } as EstEmulator;

  const auth = { Type: 'Auth', Total: '1.00', Currency: '949', Number: '4355084355084358', Expires: '12/30', Cvv2Val: '000' };
  expect((await callApi(emulator, { ...auth, OrderId: 'cli1' })).answer).toMatchObject({ Response: 'Approved', ProcReturnCode: '00' });
  const refused = await callApi(emulator, { ...auth, OrderId: 'cli2' }, { credentials: { Password: 'ESTAPI01' } });
  expect(refused.answer).toMatchObject({ Response: 'Error', Extra: { ERRORCODE: 'CORE-2702' } });

  const atGate = await postForm(emulator.gateUrl, gateForm(emulator));
  expect(atGate.status).toBe(303);
  expect(atGate.headers.get('location')).toMatch(new RegExp(`^${url}/_emulator/acs/`));
  const forged = parseAutoPost(await (await postForm(emulator.gateUrl, gateForm(emulator, {}, 'TRPS0200'))).text());
  expect(forged).toMatchObject({ action: FAIL_URL, fields: { Response: 'Error', ErrorCode: 'HPP-1006' } });

  expect(await run.stop()).toBe(0);
}, 60_000);
