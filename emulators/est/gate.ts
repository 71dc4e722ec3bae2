import { randomBytes } from 'node:crypto';
import { brandOf, luhnValid, masks, outcomeOf } from './cards.ts';
import { alreadyPaid, charge, DUPLICATE_ORDER } from './charges.ts';
import { estVer3Hash } from './hash.ts';
import { CURRENCIES, toAmount, toMinor } from './money.ts';
import { acsPage, autoPostPage, errorPage } from './pages.ts';
import { trxDate, type EstState, type ThreeDSession } from './state.ts';
import { acsUrl, isHttpUrl } from '../bank/acs.ts';

export interface GateContext {
  state: EstState;
  clientId: string;
  storeKey: string;
  baseUrl: string;
  now: Date;
  /** A `decline` control rule: the 3d_pay charge is declined (05). */
  forceDecline: boolean;
}

/** What the gate answers: an HTML page, or a redirect to the ACS. */
export type GateAnswer = { kind: 'html'; status: number; html: string } | { kind: 'redirect'; location: string };

const CARD_FIELDS = ['pan', 'cv2'];
const html = (status: number, page: string): GateAnswer => ({ kind: 'html', status, html: page });

/**
 * The 3D gate (est3Dgate): checks the merchant's form and its ver3 hash, then sends the shopper to
 * the ACS. A wrong client id or return address gets EST's error page (nobody to post back to); any
 * other fault is posted back to failUrl as EST does: Response=Error, ErrMsg, ErrorCode, signed.
 */
export function gate(ctx: GateContext, form: URLSearchParams): GateAnswer {
  const fields = Object.fromEntries(form.entries());
  if (fields.clientid !== ctx.clientId) return html(200, errorPage('Üye işyeri bulunamadı (clientid).'));
  const okUrl = fields.okUrl ?? '';
  const failUrl = fields.failUrl ?? '';
  if (!isHttpUrl(okUrl) || !isHttpUrl(failUrl)) return html(200, errorPage('okUrl ve failUrl geçerli birer http(s) adresi olmalı.'));

  const echo = echoOf(fields);
  const fail = (errMsg: string, errorCode: string) => html(200, autoPostPage(failUrl, signed(ctx.storeKey, { ...echo, Response: 'Error', ErrMsg: errMsg, ErrorCode: errorCode })));

  if ((fields.hashAlgorithm ?? '') !== 'ver3') return fail('Desteklenmeyen hashAlgorithm: yalnızca ver3.', 'HPP-1005');
  const { hash, ...hashed } = fields;
  if (!hash || estVer3Hash(hashed, ctx.storeKey) !== hash) return fail('Güvenlik uyarısı: dijital imza (hash) geçerli değil.', 'HPP-1006');

  const storetype = (fields.storetype ?? '').toLowerCase();
  if (storetype !== '3d' && storetype !== '3d_pay') return fail(`Desteklenmeyen storetype: ${fields.storetype ?? ''}`, 'HPP-1007');
  const amountMinor = toMinor(fields.amount);
  if (amountMinor === null || amountMinor === 0) return fail('Tutar (amount) geçersiz.', 'HPP-1002');
  const currency = CURRENCIES[fields.currency ?? ''];
  if (!currency) return fail('Para birimi (currency) geçersiz.', 'HPP-1003');
  const oid = fields.oid ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(oid)) return fail('Sipariş numarası (oid) geçersiz.', 'HPP-1004');
  if (!fields.rnd) return fail('rnd alanı zorunlu.', 'HPP-1008');
  const tranType = fields.islemtipi ?? fields.TranType ?? '';
  if (tranType !== 'Auth') return fail(`Desteklenmeyen işlem tipi: ${tranType}`, 'HPP-1009');
  const installments = fields.taksit ?? '';
  if (!/^(|[2-9]|1[0-2])$/.test(installments)) return fail('Taksit sayısı geçersiz.', 'HPP-1010');

  const pan = (fields.pan ?? '').replace(/\s/g, '');
  const month = Number(fields.Ecom_Payment_Card_ExpDate_Month);
  const year = Number(fields.Ecom_Payment_Card_ExpDate_Year);
  const cardOk = luhnValid(pan) && Number.isInteger(month) && month >= 1 && month <= 12 && /^\d{2}(\d{2})?$/.test(fields.Ecom_Payment_Card_ExpDate_Year ?? '') && /^\d{3,4}$/.test(fields.cv2 ?? '');
  if (!cardOk) return fail('Girilen kart numarası doğru formatta değildir. Kart numarasını kontrol ederek tekrar işlem deneyiniz.', 'HPP-1001');
  if (alreadyPaid(ctx.state, oid)) return fail(DUPLICATE_ORDER.errMsg, DUPLICATE_ORDER.errorCode);

  const token = randomBytes(16).toString('hex');
  const session: ThreeDSession = {
    token,
    md: `${pan.slice(0, 6)}:${randomBytes(32).toString('hex').toUpperCase()}:${String(1000 + (randomBytes(2).readUInt16BE() % 9000))}:##${ctx.clientId}`,
    storetype,
    oid,
    amountMinor,
    currency: fields.currency!,
    installments,
    echo,
    outcome: outcomeOf(pan, month, year, ctx.now),
    ...(({ maskedCreditCard, MaskedPan }) => ({ maskedCreditCard, maskedPan: MaskedPan }))(masks(pan)),
    brand: brandOf(pan),
    forceDecline: ctx.forceDecline,
    mdStatus: null,
    xid: '',
    eci: '',
    cavv: '',
    used: false,
  };
  ctx.state.addSession(session);
  return { kind: 'redirect', location: acsUrl(ctx.baseUrl, token) };
}

/** The ACS page for a gate visit not answered yet; null when unknown or answered. */
export function renderAcs(ctx: GateContext, token: string): string | null {
  const session = ctx.state.sessions.get(token);
  if (!session || session.mdStatus !== null) return null;
  return acsPage(acsUrl(ctx.baseUrl, token, 'complete'), {
    amount: toAmount(session.amountMinor),
    currency: CURRENCIES[session.currency]!,
    maskedCreditCard: session.maskedCreditCard,
  });
}

/**
 * The shopper's answer on the ACS page: the callback form EST posts to okUrl (authenticated and,
 * in 3d_pay, charged) or failUrl, with the 3-D Secure result and the ver3 HASH over every field.
 * In 3d_pay an authenticated shopper's card is charged here. Null when unknown or answered.
 */
export function completeAcs(ctx: GateContext, token: string, decision: string | null): string | null {
  const session = ctx.state.sessions.get(token);
  if (!session || session.mdStatus !== null) return null;
  const mdStatus = decision === 'approve' ? session.outcome.mdStatus : '0';
  const authenticated = ['1', '2', '3', '4'].includes(mdStatus);
  Object.assign(session, { mdStatus }, authenticated ? threeDProof(session.brand, mdStatus) : {});

  const fields: Record<string, string> = {
    ...session.echo,
    clientid: ctx.clientId,
    merchantID: ctx.clientId,
    maskedCreditCard: session.maskedCreditCard,
    MaskedPan: session.maskedPan,
    mdStatus,
    txstatus: mdStatus === '1' ? 'Y' : authenticated ? 'A' : 'N',
    mdErrorMsg: mdStatus === '1' ? 'Authenticated' : authenticated ? 'Attempt' : 'Not authenticated',
    md: session.md,
    xid: session.xid,
    eci: session.eci,
    cavv: session.cavv,
    version: '2.0',
    PAResSyntaxOK: 'true',
    PAResVerified: 'true',
    ReturnOid: session.oid,
    TRANID: '',
    EXTRA_CARDBRAND: session.brand,
  };
  let paid = true;
  if (session.storetype === '3d_pay' && authenticated) {
    session.used = true; // the gate made the sale: this md authorises nothing more
    const { tx } = charge(ctx.state, { ...session, threeD: { mdStatus, eci: session.eci, cavv: session.cavv, xid: session.xid } }, ctx.now);
    paid = tx.status === 'A';
    Object.assign(fields, {
      Response: paid ? 'Approved' : 'Declined',
      ProcReturnCode: tx.procReturnCode,
      AuthCode: tx.authCode,
      HostRefNum: tx.hostRefNum,
      TransId: tx.transId,
      ErrMsg: tx.errMsg,
      EXTRA_TRXDATE: trxDate(tx.at),
      SettleId: '',
    });
  }
  const target = authenticated && paid ? session.echo.okUrl! : session.echo.failUrl!;
  return autoPostPage(target, signed(ctx.storeKey, fields));
}

/** The form's fields EST posts back: everything but the card number, the CVV and the merchant's hash. */
function echoOf(fields: Record<string, string>): Record<string, string> {
  const echo = Object.fromEntries(Object.entries(fields).filter(([name]) => !CARD_FIELDS.includes(name) && name.toLowerCase() !== 'hash'));
  return { ...echo, encoding: 'UTF-8' };
}

function signed(storeKey: string, fields: Record<string, string>): Record<string, string> {
  const all = { ...fields, hashAlgorithm: 'ver3' };
  return { ...all, HASH: estVer3Hash(all, storeKey) };
}

/** The authentication proof a 3-D Secure ACS returns: ECI by brand and result (05/06 Visa, 02/01 Mastercard). */
function threeDProof(brand: 'VISA' | 'MASTERCARD', mdStatus: string): { xid: string; eci: string; cavv: string } {
  const full = mdStatus === '1';
  const eci = brand === 'VISA' ? (full ? '05' : '06') : full ? '02' : '01';
  return { xid: randomBytes(20).toString('base64'), eci, cavv: `AAABB${randomBytes(15).toString('base64')}` };
}
