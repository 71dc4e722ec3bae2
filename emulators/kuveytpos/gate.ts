// The 3-D gate (POST .../ThreeDModelPayGate, KuveytPOS's enrollment, posted by the merchant's
// server with the card) and the ACS it leads to. The gate answers an HTML page whose form takes
// the shopper's browser to the ACS; a request it refuses at once answers a page posting the
// (unsigned) AuthenticationResponse straight back to FailUrl, as the bank does. The ACS posts the
// signed AuthenticationResponse (URL-encoded XML) to OkUrl or FailUrl; the merchant then asks for
// the provision with its MD (api.ts).
import { maskPan, outcomeOf } from '../bank/cards.ts';
import { acsUrl, isHttpUrl, openChallenge } from '../bank/acs.ts';
import { autoPostPage, bankPages } from '../bank/pages.ts';
import { CURRENCIES, requestHashOf, signCallback, type KuveytTerminal } from './config.ts';
import type { Authentication, KuveytState } from './state.ts';
import { bankTime, child, contractXml, readMessage, text, type Tree } from './xml.ts';

export interface GateContext {
  state: KuveytState;
  terminal: KuveytTerminal;
  now: Date;
  baseUrl: string;
}

const BANK = 'KuveytPOS';
const pages = bankPages({ bank: BANK, resultFormId: 'kuveyt-3ds-result' });

/** What is wrong with the enrollment, as the bank's code and words; null when it may go on. */
function enrollmentProblem(m: Tree, ctx: GateContext): { code: string; message: string } | null {
  const f = (name: string) => text(m, name);
  if (f('MerchantId') !== ctx.terminal.merchantId || f('CustomerId') !== ctx.terminal.customerId) return { code: 'MerchantNotDefined', message: 'Üye işyeri bulunamadı.' };
  if (f('UserName') !== ctx.terminal.userName) return { code: 'ApiUserNotDefined', message: 'Api kullanıcısı bulunamadı.' };
  if (f('HashData') !== requestHashOf(f, ctx.terminal.password)) return { code: 'HashDataError', message: 'Şifrelenen veriler (Hashdata) uyuşmamaktadır.' };
  if (f('TransactionSecurity') !== '3' || f('TransactionType') !== 'Sale') return { code: 'InvalidTransactionSecurity', message: 'İşlem türü geçersizdir.' };
  if (!/^[1-9]\d{0,14}$/.test(f('Amount')) || f('DisplayAmount') !== f('Amount')) return { code: 'InvalidAmount', message: 'Tutar geçersiz.' };
  if (!CURRENCIES.has(f('CurrencyCode'))) return { code: 'InvalidCurrencyCode', message: 'Para birimi geçersiz.' };
  if (!/^\d{1,2}$/.test(f('InstallmentCount'))) return { code: 'InvalidInstallmentCount', message: 'Taksit sayısı geçersiz.' };
  if (!/^\d{12,19}$/.test(f('CardNumber')) || !/^\d{2}$/.test(f('CardExpireDateYear')) || !/^(0[1-9]|1[0-2])$/.test(f('CardExpireDateMonth'))) return { code: 'InvalidCardInfo', message: 'Kart bilgileri geçersiz.' };
  if (ctx.state.orders.get(f('MerchantOrderId'))?.responseCode === '00') return { code: 'MerchantOrderIdAlreadyExists', message: 'Sipariş numarası daha önce kullanılmıştır.' };
  return null;
}

const encoded = (xml: string) => encodeURIComponent(xml);

/** The enrollment: the page for the shopper's browser (to the ACS, or back to FailUrl with the refusal). */
export function enroll(raw: string, ctx: GateContext): { status: number; html: string } {
  const m = readMessage(raw);
  const failUrl = text(m ?? undefined, 'FailUrl');
  if (m === null || !isHttpUrl(text(m, 'OkUrl')) || !isHttpUrl(failUrl)) return { status: 400, html: pages.errorPage('Geçersiz istek: KuveytTurkVPosMessage, OkUrl ve FailUrl gerekli') };
  const problem = enrollmentProblem(m, ctx);
  if (problem !== null) {
    // The bank signs none of these: its refusals before the ACS carry no HashData.
    const refusal = contractXml({ IsEnrolled: 'true', IsVirtual: 'false', ResponseCode: problem.code, ResponseMessage: problem.message, OrderId: '0', TransactionTime: '0001-01-01T00:00:00', MerchantOrderId: text(m, 'MerchantOrderId'), ReferenceId: 'emulator', MerchantId: ctx.terminal.merchantId, BusinessKey: '0' });
    return { status: 200, html: autoPostPage(BANK, 'downloadForm', failUrl, { AuthenticationResponse: encoded(refusal) }) };
  }
  const auth = ctx.state.newAuthentication({
    merchantOrderId: text(m, 'MerchantOrderId'),
    amount: Number(text(m, 'Amount')),
    currency: text(m, 'CurrencyCode'),
    installments: text(m, 'InstallmentCount'),
    okUrl: text(m, 'OkUrl'),
    failUrl,
    cardNumber: text(m, 'CardNumber'),
    expiry: { month: text(m, 'CardExpireDateMonth'), year: text(m, 'CardExpireDateYear') },
  });
  return { status: 200, html: autoPostPage(BANK, 'threeDSServerWebFlowStartForm', acsUrl(ctx.baseUrl, auth.token), { threeDSServerWebFlowStart: auth.token }) };
}

/** The ACS: the challenge page (or an answer at once for a card whose ACS does not ask), then the shopper's answer. */
export function acs(token: string, step: 'page' | 'complete', raw: string, ctx: GateContext): string | null {
  const auth = openChallenge(ctx.state.authentications, token);
  if (!auth) return null;
  if (step === 'complete') return finish(auth, new URLSearchParams(raw).get('decision') === 'approve', ctx);
  const card = outcomeOf(auth.cardNumber, auth.expiry, ctx.now);
  if (card.mdStatus !== null) return finish(auth, card.mdStatus !== '0', ctx);
  return pages.acsPage(acsUrl(ctx.baseUrl, token, 'complete'), { amount: String(auth.amount), currency: auth.currency, cardMasked: maskPan(auth.cardNumber) });
}

/** The signed AuthenticationResponse, posted to OkUrl (authenticated) or FailUrl. */
function finish(auth: Authentication, authenticated: boolean, ctx: GateContext): string {
  auth.answered = true;
  auth.authenticated = authenticated;
  const outcome = authenticated
    ? { ResponseCode: '00', ResponseMessage: 'Kart doğrulandı.' }
    : { ResponseCode: 'MPIAuthenticationStatusN', ResponseMessage: '(N)Isleminiz gerceklestirelemedi. Kullanicinin 3d islem yapmasi engellendi.' };
  const signed = { MerchantOrderId: auth.merchantOrderId, OrderId: auth.orderId, ...outcome };
  const echo: Tree = {
    OrderId: auth.orderId,
    OkUrl: auth.okUrl,
    FailUrl: auth.failUrl,
    MerchantId: ctx.terminal.merchantId,
    SubMerchantId: '0',
    CustomerId: ctx.terminal.customerId,
    UserName: '',
    HashPassword: '',
    CardNumber: `${auth.cardNumber.slice(0, 8)}****${auth.cardNumber.slice(-4)}`,
    BatchID: '545',
    InstallmentCount: auth.installments,
    Amount: String(auth.amount),
    CancelAmount: '0',
    MerchantOrderId: auth.merchantOrderId,
    FECAmount: '0',
    CurrencyCode: auth.currency.replace(/^0/, ''),
    TransactionSecurity: '3',
  };
  const xml = contractXml({
    VPosMessage: echo,
    IsEnrolled: 'true',
    IsVirtual: 'false',
    ResponseCode: signed.ResponseCode,
    ResponseMessage: signed.ResponseMessage,
    OrderId: signed.OrderId,
    TransactionTime: bankTime(ctx.now),
    MerchantOrderId: signed.MerchantOrderId,
    HashData: signCallback(signed, ctx.terminal.password),
    MD: auth.md,
    ReferenceId: auth.token,
    BusinessKey: '0',
  });
  return pages.autoPostPage(authenticated ? auth.okUrl : auth.failUrl, { AuthenticationResponse: encoded(xml) });
}

/** The MD a provision carries (KuveytTurkVPosAdditionalData/AdditionalData Key MD). */
export function mdOf(m: Tree): string {
  const data = child(child(m, 'KuveytTurkVPosAdditionalData'), 'AdditionalData');
  return text(data, 'Key') === 'MD' ? text(data, 'Data') : '';
}
