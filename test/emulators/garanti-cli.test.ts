// `npm run emulator -- garanti` as a developer runs it: a real child process that takes the terminal
// as flags, prints it with its gate and API, accepts an XML sale and a gate form signed with those
// credentials and refuses those signed with others; SIGTERM stops it.
import { expect, it } from 'vitest';
import type { GarantiEmulator } from '../../emulators/garanti/server.ts';
import { useProcessGroups } from '../helpers/emulator-process.ts';
import { ERROR_URL, gateForm, threeDSecure, xml } from './garanti-client.ts';

const processes = useProcessGroups();

it('accepts the terminal given as flags, refuses other credentials, and prints them with its addresses', async () => {
  const terminal = { merchantId: '7000111', terminalId: '10000999', provisionUser: 'DEVAUT', provisionPassword: 'dev-prov', refundUser: 'DEVRFN', refundPassword: 'dev-refund', storeKey: 'dev-store-key' };
  const run = await processes.emulator([
    'garanti', '--port', '0', '--merchant-id', terminal.merchantId, '--terminal-id', terminal.terminalId,
    '--provision-user', terminal.provisionUser, '--provision-password', terminal.provisionPassword,
    '--refund-user', terminal.refundUser, '--refund-password', terminal.refundPassword, '--store-key', terminal.storeKey,
  ]);
  const url = /listening on (\S+)/.exec(run.output())?.[1];
  expect(run.printed('3D gate')).toBe(`${url}/servlet/gt3dengine`);
  expect(run.printed('XML API')).toBe(`${url}/VPServlet`);
  expect([run.printed('merchant id'), run.printed('terminal id'), run.printed('provision'), run.printed('refund'), run.printed('store key')])
    .toEqual(['7000111', '10000999', 'DEVAUT / dev-prov', 'DEVRFN / dev-refund', 'dev-store-key']);
  const emu = { url, gateUrl: run.printed('3D gate'), apiUrl: run.printed('XML API'), ...terminal } as GarantiEmulator;

  const card = { number: '4282209027132016', expire: '1230', cvv: '000' };
  expect((await xml(emu, { type: 'sales', orderId: 'CLI1', amount: '100', card })).Transaction.Response.Code).toBe('00');
  expect((await xml(emu, { type: 'refund', orderId: 'CLI1', amount: '100' })).Transaction.Response.Code).toBe('00');
  const otherPassword = await xml({ ...emu, provisionPassword: '123qweASD/' }, { type: 'sales', orderId: 'CLI2', amount: '100', card });
  expect(otherPassword.Transaction.Response).toMatchObject({ Code: '92', ReasonCode: '0651' });

  const approved = await threeDSecure(emu, gateForm(emu, { orderId: 'CLI3', amount: '500', level: '3D', card: card.number }));
  expect(approved.fields).toMatchObject({ mdstatus: '1', terminalid: terminal.terminalId });
  const forged = await threeDSecure({ ...emu, storeKey: '12345678' }, gateForm({ ...emu, storeKey: '12345678' }, { orderId: 'CLI4', amount: '500', level: '3D', card: card.number }));
  expect(forged).toMatchObject({ action: ERROR_URL, fields: { mdstatus: '7', procreturncode: '99' } });

  expect(await run.stop()).toBe(0);
}, 90_000);
