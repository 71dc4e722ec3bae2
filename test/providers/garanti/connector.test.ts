// The Garanti connector against a scripted GVP (real HTTP on 127.0.0.1) answering mewebstudio/pos's
// GVPSResponse samples (fixtures.ts): what each call sends, how each answer is read, and that no
// answer, an unreadable one or another order's is an unknown outcome.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GarantiConnector } from '../../../src/providers/garanti/connector.ts';
import { requestHash, threeDFormHash } from '../../../src/providers/garanti/hash.ts';
import { garantiProvider } from '../../../src/providers/garanti/index.ts';
import { bankOrderId } from '../../../src/providers/bank-order-id.ts';
import { garantiSettingsSchema, type GarantiCredentials } from '../../../src/providers/garanti/settings.ts';
import type { ConnectorDeps } from '../../../src/providers/registry.ts';
import { ProviderTimeoutError, type CardData, type ChargeInput, type Start3DInput, type ThreeDsPayment } from '../../../src/providers/types.ts';
import { CREDENTIALS, hostDeclined, inquiryApproved, inquiryNotFound, reversalApproved, saleApproved, saleRefusedByGvp, SIGNED_CALLBACK, type Tree } from './fixtures.ts';
import { orderOf, startScriptedGvp, type ScriptedGvp } from './scripted-gvp.ts';

const GATE = 'http://127.0.0.1:9/servlet/gt3dengine';
const CALLBACK = 'https://gateway.example/checkout/3ds/pay_1/callback';
// Another refund password than PROVAUT's, so a request hashed with the wrong one shows.
const CREDS: GarantiCredentials = { ...CREDENTIALS, refund_password: 'refund-Pass1' };
const PAYMENT_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const ORDER_ID = 'apipknflnjmlegjpkbgfhaighhcijfao';

let gvp: ScriptedGvp;
const logged: Array<Record<string, unknown>> = [];
const deps: ConnectorDeps = {
  now: () => new Date(),
  baseUrl: () => 'https://gateway.example',
  key: () => Buffer.alloc(32),
  log: (_msg, fields) => logged.push(fields),
};

const card: CardData = { holderName: 'Ayşe Yılmaz', number: '4282209027132016', securityCode: '358', expiryMonth: '05', expiryYear: '2030' };
const chargeInput = (extra: Partial<ChargeInput> = {}): ChargeInput =>
  ({ idempotencyKey: `${PAYMENT_ID}:charge`, amount: 10_050n, currency: 'TRY', installmentNumber: 1, card, shopper: { ip: '10.1.2.3', email: 'ayse@example.com' }, ...extra }) as ChargeInput;

function connect(settings: Record<string, unknown> = {}, timeoutMs?: number): GarantiConnector {
  return new GarantiConnector(CREDS, garantiSettingsSchema.parse({ gate_url: GATE, api_url: gvp.url, ...settings }), deps, timeoutMs === undefined ? {} : { timeoutMs });
}

const txn = (request: Tree) => request.Transaction as Tree;
const terminal = (request: Tree) => request.Terminal as Tree;
const last = () => gvp.requests.at(-1)!;

beforeAll(async () => {
  gvp = await startScriptedGvp();
});
afterAll(() => gvp.close());
beforeEach(() => {
  logged.length = 0;
});

describe('garantiProvider', () => {
  it('is the catalog entry the lead wires', () => {
    const def = garantiProvider(deps);
    expect(def.id).toBe('garanti');
    expect(def.label).toBe('Garanti BBVA virtual POS');
    expect([...def.capabilities].sort()).toEqual(['cancel', 'conversion', 'hosted_page', 'non_secure', 'refund', 'secure']);
    expect(def.settings.parse({})).toEqual({ environment: 'test', model: '3d', timeout_ms: 60_000, lang: 'tr' });
    expect(def.credentials.safeParse({ ...CREDENTIALS, terminal_id: '1234567890' }).success).toBe(false);
    expect(def.credentials.safeParse({ ...CREDENTIALS, store_key: undefined }).success).toBe(false);
    expect(def.settings.safeParse({ api_url: 'ftp://x' }).success).toBe(false);
    expect(def.settings.safeParse({ timeout_ms: 500 }).success).toBe(false);
    expect(def.connect({ id: 'acc', credentials: CREDENTIALS, settings: {} }).provider).toBe('garanti');
  });
});

describe('charge (non-3D sale)', () => {
  it('sends a hashed sale with the card and reads the approval', async () => {
    gvp.answer((req) => ({ body: saleApproved(orderOf(req)) }));
    const result = await connect().charge(chargeInput());
    expect(result).toEqual({ status: 'succeeded', providerReference: `${ORDER_ID}:230508300434` });
    const req = last();
    expect(req.Mode).toBe('TEST');
    expect(orderOf(req)).toBe(ORDER_ID);
    expect(terminal(req)).toMatchObject({ ProvUserID: 'PROVAUT', UserID: 'PROVAUT', ID: '30691298', MerchantID: '7000679' });
    expect(req.Card).toEqual({ Number: card.number, ExpireDate: '0530', CVV2: '358' });
    expect(txn(req)).toMatchObject({ Type: 'sales', Amount: '10050', CurrencyCode: '949', InstallmentCnt: '', CardholderPresentCode: '0', MotoInd: 'N' });
    expect(terminal(req).HashData).toBe(
      requestHash({ orderId: ORDER_ID, terminalId: '30691298', cardNumber: card.number, amount: '10050', currencyCode: '949', password: CREDS.provision_password }),
    );
  });

  it('sends instalments and the currency number', async () => {
    gvp.answer((req) => ({ body: saleApproved(orderOf(req)) }));
    await connect().charge(chargeInput({ installmentNumber: 3, currency: 'EUR' }));
    expect(txn(last())).toMatchObject({ InstallmentCnt: '3', CurrencyCode: '978' });
  });

  it("maps the issuer's refusal and keeps its code and message", async () => {
    gvp.answer((req) => ({ body: hostDeclined(orderOf(req), '51', 'Yetersiz bakiye') }));
    expect(await connect().charge(chargeInput())).toEqual({
      status: 'declined',
      code: 'insufficient_funds',
      message: 'Yetersiz bakiye',
      providerCode: '51',
      providerMessage: 'Yetersiz bakiye',
    });
  });

  it("takes GVP's own refusal of the request (92/0002) for a provider error", async () => {
    gvp.answer((req) => ({ body: saleRefusedByGvp(orderOf(req)) }));
    expect(await connect().charge(chargeInput())).toMatchObject({ status: 'error', code: 'provider_error', providerCode: '92/0002' });
  });

  it("treats another order's answer, an unreadable body and no answer as an unknown outcome", async () => {
    gvp.answer(() => ({ body: saleApproved('SOMEOTHERORDER') }));
    await expect(connect().charge(chargeInput())).rejects.toBeInstanceOf(ProviderTimeoutError);
    gvp.answer(() => ({ body: '<html>502 Bad Gateway</html>', status: 502 }));
    await expect(connect().charge(chargeInput())).rejects.toBeInstanceOf(ProviderTimeoutError);
    gvp.answer((req) => ({ body: saleApproved(orderOf(req)), delayMs: 600 }));
    await expect(connect({}, 150).charge(chargeInput())).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('logs the exchange without card data, hashes or the email', async () => {
    gvp.answer((req) => ({ body: saleApproved(orderOf(req)) }));
    await connect().charge(chargeInput());
    const text = JSON.stringify(logged);
    expect(logged).toHaveLength(1);
    expect(text).toContain(ORDER_ID);
    expect(text).toContain('************2016');
    for (const secret of [card.number, '358', '0530', 'ayse@example.com', terminal(last()).HashData as string, CREDS.provision_password]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('3D Secure, 3D model', () => {
  const startInput = (): Start3DInput =>
    ({ idempotencyKey: `${PAYMENT_ID}:authorise`, amount: 101n, currency: 'TRY', installmentNumber: 1, card, callbackUrl: CALLBACK, shopper: { ip: '10.1.2.3' } }) as Start3DInput;

  it('answers the signed form for the 3D gate, with no call', async () => {
    const before = gvp.requests.length;
    const result = await connect({ lang: 'en' }).start3D(startInput());
    expect(gvp.requests.length).toBe(before);
    if (result.status !== 'redirect' || result.redirect.kind !== 'form') throw new Error('expected a form');
    expect(result.providerReference).toBe(ORDER_ID);
    expect(result.redirect.action).toBe(GATE);
    // The card travels apart: the gateway never stores it (it is sealed into the redirect address).
    expect(result.redirect.cardFields).toEqual({ cardnumber: card.number, cardexpiredatemonth: '05', cardexpiredateyear: '30', cardcvv2: '358' });
    expect(Object.keys(result.redirect.fields)).not.toContain('cardnumber');
    const f = { ...result.redirect.fields, ...result.redirect.cardFields };
    expect(f).toMatchObject({
      mode: 'TEST',
      apiversion: '512',
      secure3dsecuritylevel: '3D',
      terminalprovuserid: 'PROVAUT',
      terminaluserid: 'PROVAUT',
      terminalmerchantid: '7000679',
      terminalid: '30691298',
      orderid: ORDER_ID,
      txntype: 'sales',
      txnamount: '101',
      txncurrencycode: '949',
      txninstallmentcount: '',
      successurl: CALLBACK,
      errorurl: CALLBACK,
      customeripaddress: '10.1.2.3',
      customeremailaddress: 'shopper@example.com',
      lang: 'en',
      cardnumber: card.number,
      cardexpiredatemonth: '05',
      cardexpiredateyear: '30',
      cardcvv2: '358',
    });
    expect(f.secure3dhash).toBe(
      threeDFormHash({
        terminalId: '30691298',
        orderId: ORDER_ID,
        amount: '101',
        currencyCode: '949',
        successUrl: CALLBACK,
        errorUrl: CALLBACK,
        type: 'sales',
        installment: '',
        storeKey: CREDS.store_key,
        password: CREDS.provision_password,
      }),
    );
    // Every call of one payment names the same order.
    expect(bankOrderId(`${PAYMENT_ID}:charge`)).toBe(ORDER_ID);
    expect(bankOrderId('not a uuid:charge')).toMatch(/^[a-p]{32}$/);
  });

  it('sends 3D in the 3D Pay model', async () => {
    const result = await connect({ model: '3d_pay' }).start3D(startInput());
    expect(result.status === 'redirect' && result.redirect.kind === 'form' && result.redirect.fields.secure3dsecuritylevel).toBe('3D_PAY');
  });

  it("completes with a 3D sale carrying the ACS's proof (mewebstudio's signed callback)", async () => {
    const connector = connect();
    const payment: ThreeDsPayment = { startKey: 'k', providerReference: '2023100354BB', amount: 101n, currency: 'TRY' };
    const check = connector.verifyCallback(payment, SIGNED_CALLBACK);
    if (check.status !== 'verified' || !check.authenticated) throw new Error('expected an authenticated callback');
    gvp.answer((req) => ({ body: saleApproved(orderOf(req)) }));
    const result = await connector.complete3D({ idempotencyKey: 'p:complete', payment, data: check.data });
    expect(result).toEqual({ status: 'succeeded', providerReference: '2023100354BB:230508300434' });
    const req = last();
    expect(req.Card).toBeUndefined();
    expect(orderOf(req)).toBe('2023100354BB');
    expect((req.Customer as Tree).IPAddress).toBe('172.26.0.1');
    expect(txn(req)).toMatchObject({
      Type: 'sales',
      Amount: '101',
      CurrencyCode: '949',
      CardholderPresentCode: '13',
      Secure3D: { AuthenticationCode: SIGNED_CALLBACK.cavv, SecurityLevel: '02', TxnID: SIGNED_CALLBACK.xid, Md: SIGNED_CALLBACK.md },
    });
    expect(terminal(req).HashData).toBe(requestHash({ orderId: '2023100354BB', terminalId: '30691298', amount: '101', currencyCode: '949', password: CREDS.provision_password }));
  });

  it('declines when the bank refuses the 3D sale', async () => {
    gvp.answer((req) => ({ body: hostDeclined(orderOf(req), '05', 'Red') }));
    const payment: ThreeDsPayment = { startKey: 'k', providerReference: 'ORDER1', amount: 101n, currency: 'TRY' };
    const result = await connect().complete3D({ idempotencyKey: 'p:complete', payment, data: { orderId: 'ORDER1', cavv: 'c', eci: '05', xid: 'x', md: 'm' } });
    expect(result).toMatchObject({ status: 'declined', code: 'card_declined', providerCode: '05' });
  });
});

describe('3D Secure, 3D Pay model', () => {
  const payment: ThreeDsPayment = { startKey: 'k', providerReference: 'ORDER1', amount: 101n, currency: 'TRY' };

  it('reads the charge from the verified callback without a call', async () => {
    const before = gvp.requests.length;
    const connector = connect({ model: '3d_pay' });
    const ok = await connector.complete3D({ idempotencyKey: 'p:complete', payment, data: { orderId: 'ORDER1', procreturncode: '00', response: 'Approved', errmsg: '', hostrefnum: '230508300426' } });
    expect(ok).toEqual({ status: 'succeeded', providerReference: 'ORDER1:230508300426' });
    const no = await connector.complete3D({ idempotencyKey: 'p:complete', payment, data: { orderId: 'ORDER1', procreturncode: '54', response: 'Declined', errmsg: 'Kartın süresi dolmuş', hostrefnum: '' } });
    expect(no).toMatchObject({ status: 'declined', code: 'expired_card', providerCode: '54', providerMessage: 'Kartın süresi dolmuş' });
    expect(gvp.requests.length).toBe(before);
  });
});

describe('refund and cancel', () => {
  it('refunds as PROVRFN, hashed with its password', async () => {
    gvp.answer((req) => ({ body: reversalApproved(orderOf(req)) }));
    const result = await connect().refund({ idempotencyKey: 'refund:r1', providerReference: `${ORDER_ID}:230508300434`, amount: 2_500n, currency: 'TRY' });
    expect(result.status).toBe('succeeded');
    const req = last();
    expect(terminal(req)).toMatchObject({ ProvUserID: 'PROVRFN', UserID: 'PROVRFN' });
    expect(txn(req)).toMatchObject({ Type: 'refund', Amount: '2500', CurrencyCode: '949' });
    expect(terminal(req).HashData).toBe(requestHash({ orderId: ORDER_ID, terminalId: '30691298', amount: '2500', currencyCode: '949', password: 'refund-Pass1' }));
  });

  it('answers refund_rejected when the bank refuses a refund', async () => {
    gvp.answer((req) => ({ body: hostDeclined(orderOf(req), '05', 'İşleminizi gerçekleştiremiyoruz.Tekrar deneyiniz', 'PROVRFN') }));
    expect(await connect().refund({ idempotencyKey: 'refund:r2', providerReference: ORDER_ID, amount: 100n, currency: 'TRY' })).toMatchObject({
      status: 'declined',
      code: 'refund_rejected',
      providerCode: '05',
    });
  });

  it('voids as PROVRFN, naming the sale by its RetrefNum', async () => {
    gvp.answer((req) => ({ body: reversalApproved(orderOf(req)) }));
    expect((await connect().cancel({ idempotencyKey: 'cancel:c1', providerReference: `${ORDER_ID}:230508300434` })).status).toBe('succeeded');
    const req = last();
    expect(terminal(req).ProvUserID).toBe('PROVRFN');
    expect(txn(req)).toMatchObject({ Type: 'void', Amount: '100', OriginalRetrefNum: '230508300434' });
    expect(terminal(req).HashData).toBe(requestHash({ orderId: ORDER_ID, terminalId: '30691298', amount: '100', currencyCode: '949', password: 'refund-Pass1' }));
  });

  it('refuses a reference it did not write, without a call', async () => {
    const before = gvp.requests.length;
    expect(await connect().cancel({ idempotencyKey: 'cancel:c2', providerReference: 'not/ours' })).toMatchObject({ status: 'error', code: 'provider_error' });
    expect(gvp.requests.length).toBe(before);
  });
});

describe('paymentStatus (order inquiry)', () => {
  it('finds an approved sale of the amount asked', async () => {
    gvp.answer((req) => ({ body: inquiryApproved(orderOf(req), '101') }));
    const result = await connect().paymentStatus({ idempotencyKey: `${PAYMENT_ID}:charge`, providerReference: null, amount: 101n, currency: 'TRY' });
    expect(result).toEqual({ status: 'succeeded', providerReference: `${ORDER_ID}:300708704369` });
    expect(txn(last())).toMatchObject({ Type: 'orderinq' });
    expect(orderOf(last())).toBe(ORDER_ID);
  });

  it('does not take a sale of another amount for this payment', async () => {
    gvp.answer((req) => ({ body: inquiryApproved(orderOf(req), '999') }));
    await expect(connect().paymentStatus({ idempotencyKey: 'x', providerReference: ORDER_ID, amount: 101n, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('answers unknown for an order GVP does not know', async () => {
    gvp.answer((req) => ({ body: inquiryNotFound(orderOf(req)) }));
    expect(await connect().paymentStatus({ idempotencyKey: 'x', providerReference: ORDER_ID, amount: 101n, currency: 'TRY' })).toEqual({ status: 'unknown' });
  });
});

describe('lookups banks do not answer', () => {
  it('returns the BIN with no facts, and the account rate table for instalments', async () => {
    const c = connect();
    expect(await c.binLookup('428220')).toEqual({ bin: '428220', issuerName: null, issuerCode: null, scheme: null, type: null, program: null, isCommercial: null });
    const options = await c.installments({ bin: '428220', amount: 10_000n, currency: 'TRY', monthlyRatesBp: [0, 100] });
    expect(options[1]).toEqual({ number: 2, amount: 5_050n, total: 10_100n });
  });
});

