// The PayFlex emulator on its own, as a client of its HTTP speaks to it: the VPOS's refusals (another
// merchant's password or terminal, an order already sold, a TransactionId used twice, a refund above
// what is left, a second cancel), the MPI's refusals and its ACS (a form that is not the
// enrollment's), a 3-D sale whose MPI result does not match what the MPI issued, the test cards,
// latency, books without card numbers, and `npm run emulator -- payflex` as a developer runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../emulators/bank/cards.ts';
import { startPayflexEmulator, type PayflexEmulator } from '../../emulators/payflex/server.ts';
import { parsePayflexXml, prmstrBody, searchRequestXml, vposRequestXml, type PayflexFields } from '../../src/providers/payflex/xml.ts';
import { cancelRequest, enrollmentRequest, refundRequest, saleRequest, searchRequest, threeDSaleRequest } from '../../src/providers/payflex/requests.ts';
import type { PayflexCredentials } from '../../src/providers/payflex/settings.ts';
import { walkGate } from '../helpers/bank-contract.ts';
import { useProcessGroups } from '../helpers/emulator-process.ts';

let emu: PayflexEmulator;
beforeAll(async () => {
  emu = await startPayflexEmulator({ port: 0 });
});
afterAll(() => emu?.stop());

const credentialsOf = (e: PayflexEmulator, over: Partial<PayflexCredentials> = {}): PayflexCredentials => ({ merchant_id: e.merchantId, merchant_password: e.password, terminal_no: e.terminalNo, merchant_type: '0', ...over });
const card = (number: string, expiryYear = '2030') => ({ holderName: 'A', number, securityCode: '000', expiryMonth: '12', expiryYear });
const post = async (url: string, body: string) => {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
  return parsePayflexXml(await res.text())!.node as Record<string, unknown>;
};
const vpos = (e: PayflexEmulator, request: PayflexFields) => post(e.apiUrl, prmstrBody(vposRequestXml(request)));
const sale = (e: PayflexEmulator, orderId: string, number: string, over: Partial<PayflexCredentials> = {}, expiryYear?: string) =>
  vpos(e, saleRequest({ orderId, amount: 1050n, currency: 'TRY', installmentNumber: 1, card: card(number, expiryYear) }, credentialsOf(e, over)));

describe('the VPOS', () => {
  it('answers each test card with VakıfBank\u2019s four-digit code; a past expiry is 0054', async () => {
    const codes = { approved: '0000', insufficient_funds: '0051', do_not_honour: '0005', expired: '0054' };
    for (const [i, [pan, c]] of Object.entries(TEST_CARDS).entries()) expect((await sale(emu, `card${i}`, pan)).ResultCode, c.label).toBe(codes[c.answer]);
    expect(await sale(emu, 'expired1', '4506349116608409', {}, '2020')).toMatchObject({ ResultCode: '0054' });
  });

  it('refuses another merchant\u2019s password or terminal, a second sale on an order, a TransactionId used twice', async () => {
    expect(await sale(emu, 'o1', '4506349116608409', { merchant_password: 'wrong' })).toMatchObject({ ResultCode: '9039' });
    expect(await sale(emu, 'o1', '4506349116608409', { terminal_no: 'VP000001' })).toMatchObject({ ResultCode: '9039' });
    const first = await sale(emu, 'o1', '4506349116608409');
    expect(first).toMatchObject({ ResultCode: '0000', OrderId: 'o1' });
    expect(await sale(emu, 'o1', '4506349116608409')).toMatchObject({ ResultCode: '9031' });
    const c = credentialsOf(emu);
    const refund = refundRequest({ saleTransactionId: first.TransactionId as string, amount: 100n, transactionId: 'r-once' }, c);
    expect(await vpos(emu, refund)).toMatchObject({ ResultCode: '0000', TransactionId: 'r-once', ReferenceTransactionId: first.TransactionId });
    expect(await vpos(emu, refund)).toMatchObject({ ResultCode: '9032' });
  });

  it('refunds up to what is left (1059 past it), cancels once (1083 after), and the search finds each by its TransactionId', async () => {
    const c = credentialsOf(emu);
    const sold = await sale(emu, 'o2', '4506349116608409');
    const saleId = sold.TransactionId as string;
    expect(await vpos(emu, refundRequest({ saleTransactionId: saleId, amount: 1051n }, c))).toMatchObject({ ResultCode: '1059' });
    expect(await vpos(emu, refundRequest({ saleTransactionId: saleId, amount: 1050n, transactionId: 'r-all' }, c))).toMatchObject({ ResultCode: '0000' });
    expect(await vpos(emu, cancelRequest({ saleTransactionId: saleId, transactionId: 'c-late' }, c))).toMatchObject({ ResultCode: '1083' });
    const found = await post(emu.queryUrl, prmstrBody(searchRequestXml(searchRequest({ orderId: 'o2', transactionId: 'c-late' }, c))));
    expect(found).toMatchObject({ ResponseInfo: { Status: 'Success', ResponseCode: '0000' }, TotalItemCount: '1', TransactionSearchResultInfo: { TransactionSearchResultInfo: { TransactionType: 'Cancel', ResultCode: '1083', OrderId: 'o2' } } });
    const bySale = await post(emu.queryUrl, prmstrBody(searchRequestXml(searchRequest({ orderId: 'o2' }, c))));
    expect(bySale).toMatchObject({ TransactionSearchResultInfo: { TransactionSearchResultInfo: { TransactionType: 'Sale', TransactionId: saleId, IsRefunded: 'true', IsCanceled: 'false', CurrencyAmount: '10.50' } } });
    expect(await post(emu.queryUrl, prmstrBody(searchRequestXml(searchRequest({ orderId: 'none' }, c))))).toMatchObject({ TotalItemCount: '0' });
    expect(await post(emu.queryUrl, prmstrBody(searchRequestXml(searchRequest({ orderId: 'o2' }, credentialsOf(emu, { merchant_password: 'x' })))))).toMatchObject({ ResponseInfo: { Status: 'Error', ResponseCode: '9065' } });
  });
});

describe('the MPI and its ACS', () => {
  const enroll = (e: PayflexEmulator, id: string, over: Record<string, string> = {}) =>
    post(e.enrollmentUrl, new URLSearchParams({ ...enrollmentRequest({ enrollmentId: id, amount: 1050n, currency: 'TRY', installmentNumber: 1, card: card('4506349116608409'), callbackUrl: 'https://shop.example/back', sessionInfo: 'seal' }, credentialsOf(e)), ...over }).toString());

  it('refuses another merchant (2005) and an enrollment id used twice; the ACS refuses a form that is not the enrollment\u2019s', async () => {
    expect(await enroll(emu, 'm1', { MerchantPassword: 'x' })).toMatchObject({ Message: { VERes: { Status: 'E' } }, MessageErrorCode: '2005' });
    const first = await enroll(emu, 'm2');
    expect(first).toMatchObject({ Message: { VERes: { Status: 'Y' } }, VerifyEnrollmentRequestId: 'm2' });
    expect(await enroll(emu, 'm2')).toMatchObject({ Message: { VERes: { Status: 'E' } } });
    const veres = (first.Message as { VERes: Record<string, string> }).VERes;
    const forged = await fetch(veres.ACSUrl!, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ PaReq: veres.PaReq!, MD: 'other', TermUrl: veres.TermUrl! }).toString() });
    expect(forged.status).toBe(400);
  });

  it('posts the result with the fields of the bank\u2019s captured answers; the VPOS takes its CAVV once, and no other', async () => {
    const answer = await enroll(emu, 'm3');
    const veres = (answer.Message as { VERes: Record<string, string> }).VERes;
    const fields = await walkGate({ kind: 'form', action: veres.ACSUrl!, fields: { PaReq: veres.PaReq!, TermUrl: veres.TermUrl!, MD: veres.MD! } });
    // The keys of mewebstudio's threeDResponseData samples.
    expect(Object.keys(fields).sort()).toEqual(['Cavv', 'Eci', 'ErrorCode', 'ErrorMessage', 'ExpSign', 'Expiry', 'InstallmentCount', 'MerchantId', 'Pan', 'PurchAmount', 'PurchCurrency', 'SessionInfo', 'Status', 'SubMerchantName', 'SubMerchantNo', 'SubMerchantNumber', 'VerifyEnrollmentRequestId', 'Xid']);
    expect(fields).toMatchObject({ Status: 'Y', SessionInfo: 'seal', PurchAmount: '1050', Expiry: '3012' });
    const c = credentialsOf(emu);
    const threeD = (cavv: string, orderId: string) => vpos(emu, threeDSaleRequest({ orderId, amount: 1050n, currency: 'TRY', installmentNumber: 1, eci: fields.Eci!, cavv, enrollmentId: 'm3', pan: fields.Pan!, expiry: fields.Expiry! }, c));
    expect(await threeD('AAABBBBBBBBBBBBBBBIIIIII=', 'o3')).toMatchObject({ ResultCode: '9030' });
    expect(await threeD(fields.Cavv!, 'o4')).toMatchObject({ ResultCode: '0000', ThreeDSecureType: '2', ECI: '05' });
    expect(await threeD(fields.Cavv!, 'o5')).toMatchObject({ ResultCode: '9030' });
  });

  it('keeps no card number in its books', async () => {
    const state = await (await fetch(`${emu.url}/_emulator/state`)).text();
    for (const pan of Object.keys(TEST_CARDS)) expect(state).not.toContain(pan);
  });
});

it('waits the latency it was started with before every answer', async () => {
  const slow = await startPayflexEmulator({ port: 0, latency: { minMs: 300, maxMs: 300 } });
  try {
    const started = Date.now();
    expect(await sale(slow, 'slow1', '4506349116608409')).toMatchObject({ ResultCode: '0000' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  } finally {
    await slow.stop();
  }
});

const processes = useProcessGroups();

it('`npm run emulator -- payflex` takes the merchant as flags, prints it with its addresses, and stops on SIGTERM', async () => {
  const run = await processes.emulator(['payflex', '--port', '0', '--merchant-id', '000000000222222', '--password', 'dev-pass', '--terminal-no', 'VP000001']);
  const url = /listening on (\S+)/.exec(run.output())?.[1];
  expect(run.printed('MPI enrollment')).toBe(`${url}/MPIAPI/MPI_Enrollment.aspx`);
  expect(run.printed('VPOS')).toBe(`${url}/VposService/v3/Vposreq.aspx`);
  expect(run.printed('search')).toBe(`${url}/UIService/Search.aspx`);
  expect([run.printed('merchant id'), run.printed('password'), run.printed('terminal')]).toEqual(['000000000222222', 'dev-pass', 'VP000001']);
  const dev = { url, apiUrl: run.printed('VPOS'), merchantId: '000000000222222', password: 'dev-pass', terminalNo: 'VP000001' } as PayflexEmulator;
  expect(await sale(dev, 'cli1', '4506349116608409')).toMatchObject({ ResultCode: '0000' });
  expect(await sale(dev, 'cli2', '4506349116608409', { merchant_password: emu.password })).toMatchObject({ ResultCode: '9039' });
  expect(await run.stop()).toBe(0);
}, 90_000);
