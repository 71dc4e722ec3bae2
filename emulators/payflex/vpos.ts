// The emulated VPOS (POST /VposService/v3/Vposreq.aspx, a <VposRequest> in `prmstr`) and its search
// (POST /UIService/Search.aspx, a <SearchRequest>). Sales (with the card, or the MPI's result for a
// 3-D sale), refunds and cancels by the sale's TransactionId; the search finds a transaction by its
// TransactionId, or an order's successful sale (else its last one) by OrderId. The issuer's answer
// comes from the shared test cards (../bank/cards.ts), written as VakıfBank writes an issuer's code.
import { outcomeOf, type IssuerAnswer } from '../bank/cards.ts';
import { CURRENCIES, decimalOf, minorUnits, type PayflexTerminal } from './config.ts';
import type { PayflexState, Txn } from './state.ts';
import { child, documentXml, readPrmstr, text, type Tree } from './xml.ts';

export interface VposContext {
  state: PayflexState;
  terminal: PayflexTerminal;
  now: Date;
  forceDecline: boolean;
}

const ISSUER: Record<IssuerAnswer, { code: string; message: string }> = {
  approved: { code: '0000', message: 'İŞLEM BAŞARILI' },
  insufficient_funds: { code: '0051', message: 'RED-YETERSİZ BAKİYE' },
  do_not_honour: { code: '0005', message: 'RED-ONAYLANMADI' },
  expired: { code: '0054', message: 'RED-KARTIN SÜRESİ DOLMUŞ' },
};

/** The emulator's refusals of a request; VakıfBank's published ones where mewebstudio/pos shows them (9039, 1059, 1083). */
const REFUSAL = {
  merchant: { code: '9039', message: 'Üye işyeri bulunamadı.' },
  format: { code: '1001', message: 'İstek mesajı okunamadı.' },
  amount: { code: '1002', message: 'Tutar geçersiz.' },
  currency: { code: '1003', message: 'Para birimi geçersiz.' },
  card: { code: '1004', message: 'Kart bilgileri geçersiz.' },
  type: { code: '1008', message: 'İşlem tipi geçersiz.' },
  usedOrder: { code: '9031', message: 'Sipariş numarası daha önce kullanılmış.' },
  usedId: { code: '9032', message: 'TransactionId daha önce kullanılmış.' },
  mpi: { code: '9030', message: '3D doğrulaması geçersiz.' },
  noSale: { code: '1083', message: 'İşlem bulunamadı ya da iptal edilmiş.' },
  refunded: { code: '1059', message: 'İşlemin tamamı iade edilmiş.' },
} as const;

type Said = { code: string; message: string };

/** Whether a VPOS request can charge a card (only sales take a `decline` rule). */
export function isSale(raw: string): boolean {
  return text(readPrmstr(raw, 'VposRequest') ?? undefined, 'TransactionType') === 'Sale';
}

const vposXml = (fields: Record<string, string>) => documentXml('VposResponse', fields);

/** POST /VposService/v3/Vposreq.aspx. */
export function handleVpos(raw: string, ctx: VposContext): string {
  const r = readPrmstr(raw, 'VposRequest');
  if (r === null) return vposXml({ ResultCode: REFUSAL.format.code, ResultDetail: REFUSAL.format.message, InstallmentTable: '' });
  const f = (name: string) => text(r, name);
  if (f('MerchantId') !== ctx.terminal.merchantId || f('Password') !== ctx.terminal.password) return refusalXml(REFUSAL.merchant);
  if (f('TransactionId') !== '' && ctx.state.txns.has(f('TransactionId'))) return refusalXml(REFUSAL.usedId);
  const type = f('TransactionType');
  if (type === 'Sale') return f('TerminalNo') === ctx.terminal.terminalNo ? sale(f, ctx) : refusalXml(REFUSAL.merchant);
  if (type === 'Refund' || type === 'Cancel') return reversal(type, f, ctx);
  return refusalXml(REFUSAL.type);
}

const refusalXml = (said: Said) => vposXml({ ResultCode: said.code, ResultDetail: said.message, InstallmentTable: '' });

function sale(f: (name: string) => string, ctx: VposContext): string {
  const amount = minorUnits(f('CurrencyAmount'));
  if (amount === null) return refusalXml(REFUSAL.amount);
  if (!CURRENCIES.has(f('CurrencyCode'))) return refusalXml(REFUSAL.currency);
  if (!/^\d{12,19}$/.test(f('Pan')) || !/^\d{6}$/.test(f('Expiry'))) return refusalXml(REFUSAL.card);
  const orderId = f('OrderId');
  if ([...ctx.state.txns.values()].some((t) => t.type === 'Sale' && t.orderId === orderId && t.code === '0000')) return refusalXml(REFUSAL.usedOrder);
  const threeD = f('MpiTransactionId') !== '';
  const said = threeD ? mpiProblem(f, amount, ctx) ?? issuerSaid(f, ctx) : issuerSaid(f, ctx);
  const txn = ctx.state.newTxn(
    { transactionId: f('TransactionId'), type: 'Sale', merchantId: f('MerchantId'), orderId, referenceTransactionId: '', code: said.code, message: said.message, amount, currency: f('CurrencyCode'), secureType: threeD ? '2' : '1' },
    ctx.now,
  );
  return answerXml(txn, ctx, { ...(threeD ? { ECI: f('ECI') } : {}), ThreeDSecureType: txn.secureType, TransactionDeviceSource: f('TransactionDeviceSource') || '0' });
}

function issuerSaid(f: (name: string) => string, ctx: VposContext): Said {
  if (ctx.forceDecline) return ISSUER.do_not_honour;
  const expiry = f('Expiry');
  return ISSUER[outcomeOf(f('Pan'), { month: expiry.slice(4), year: expiry.slice(0, 4) }, ctx.now).answer];
}

/** A 3-D sale must carry the MPI's own authentication of this merchant, card and amount, once. */
function mpiProblem(f: (name: string) => string, amount: number, ctx: VposContext): Said | null {
  const e = ctx.state.enrollments.get(f('MpiTransactionId'));
  const matches = e !== undefined && !e.used && e.merchantId === f('MerchantId') && (e.status === 'Y' || e.status === 'A') && e.cavv === f('CAVV') && e.eci === f('ECI') && e.pan === f('Pan') && `20${e.expiry}` === f('Expiry') && e.amount === amount && e.currency === f('CurrencyCode');
  if (!matches) return REFUSAL.mpi;
  e.used = true;
  return null;
}

function reversal(type: 'Refund' | 'Cancel', f: (name: string) => string, ctx: VposContext): string {
  const sale = ctx.state.txns.get(f('ReferenceTransactionId'));
  const standing = sale !== undefined && sale.type === 'Sale' && sale.code === '0000' && !sale.canceled && sale.merchantId === f('MerchantId');
  const left = standing ? sale.amount - ctx.state.refunded(sale) : 0;
  let amount = left;
  let said: Said = ISSUER.approved;
  if (type === 'Refund') {
    const asked = minorUnits(f('CurrencyAmount'));
    if (asked === null) return refusalXml(REFUSAL.amount);
    amount = asked;
    if (!standing) said = REFUSAL.noSale;
    else if (asked > left) said = REFUSAL.refunded;
  } else if (!standing || ctx.state.reversalsOf(sale).some((t) => t.code === '0000')) said = REFUSAL.noSale;
  if (sale === undefined) return refusalXml(said);
  const txn = ctx.state.newTxn(
    { transactionId: f('TransactionId'), type, merchantId: f('MerchantId'), orderId: sale.orderId, referenceTransactionId: sale.transactionId, code: said.code, message: said.message, amount, currency: sale.currency, secureType: sale.secureType },
    ctx.now,
  );
  if (type === 'Cancel' && said.code === '0000') sale.canceled = true;
  return answerXml(txn, ctx, { ReferenceTransactionId: sale.transactionId });
}

/** A transaction's answer, with the fields VakıfBank's carry (mewebstudio's samples). */
function answerXml(t: Txn, ctx: VposContext, extra: Record<string, string>): string {
  return vposXml({
    MerchantId: t.merchantId,
    TransactionType: t.type,
    TransactionId: t.transactionId,
    ...(extra.ReferenceTransactionId ? { ReferenceTransactionId: extra.ReferenceTransactionId } : {}),
    ResultCode: t.code,
    ResultDetail: t.message,
    InstallmentTable: '',
    CampaignResult: '',
    AuthCode: t.authCode,
    HostDate: t.hostDate,
    Rrn: t.rrn,
    TerminalNo: ctx.terminal.terminalNo,
    CurrencyAmount: decimalOf(t.amount),
    CurrencyCode: t.currency,
    ...(t.type === 'Sale' ? { OrderId: t.orderId } : {}),
    ...Object.fromEntries(Object.entries(extra).filter(([name]) => name !== 'ReferenceTransactionId')),
    BatchNo: '300',
    TLAmount: decimalOf(t.amount),
  });
}

/** POST /UIService/Search.aspx. */
export function handleSearch(raw: string, ctx: VposContext): string {
  const r = readPrmstr(raw, 'SearchRequest');
  const merchant = child(r ?? undefined, 'MerchantCriteria');
  const criteria = child(r ?? undefined, 'TransactionCriteria');
  if (text(merchant, 'HostMerchantId') !== ctx.terminal.merchantId || text(merchant, 'MerchantPassword') !== ctx.terminal.password) {
    return documentXml('SearchResponse', { ResponseInfo: info('Error', '9065', 'Üye isyeri bulunamadi', ctx.now) });
  }
  const found = findTxn(text(criteria, 'TransactionId'), text(criteria, 'OrderId'), ctx);
  return documentXml('SearchResponse', {
    ResponseInfo: info('Success', '0000', 'Succeeded.', ctx.now),
    PageIndex: '1',
    PageSize: '10',
    TotalItemCount: found ? '1' : '0',
    TransactionSearchResultInfo: found ? { TransactionSearchResultInfo: item(found, ctx) } : '',
  });
}

/** By TransactionId (OrderId then ignored), else the order's successful sale, else its last transaction. */
function findTxn(transactionId: string, orderId: string, ctx: VposContext): Txn | undefined {
  const mine = (t: Txn) => t.merchantId === ctx.terminal.merchantId;
  if (transactionId !== '') {
    const t = ctx.state.txns.get(transactionId);
    return t && mine(t) ? t : undefined;
  }
  const sales = [...ctx.state.txns.values()].filter((t) => mine(t) && t.type === 'Sale' && t.orderId === orderId);
  return sales.find((t) => t.code === '0000') ?? sales.at(-1);
}

const info = (status: string, code: string, message: string, now: Date): Tree => ({ Status: status, ResponseCode: code, ResponseMessage: message, ResponseDateTime: now.toISOString(), IsIdempotent: 'false' });

function item(t: Txn, ctx: VposContext): Tree {
  const refunded = t.type === 'Sale' && ctx.state.refunded(t) > 0;
  return {
    MerchantId: t.merchantId,
    TransactionType: t.type,
    TransactionId: t.transactionId,
    OrderId: t.orderId,
    ResultCode: t.code,
    ResponseMessage: t.message,
    HostResultCode: t.code === '0000' ? '000' : t.code.slice(1),
    AuthCode: t.authCode,
    HostDate: t.hostDate.slice(4),
    Rrn: t.rrn,
    CurrencyAmount: decimalOf(t.amount),
    AmountCode: t.currency,
    CurrencyCode: '',
    ThreeDSecureType: t.secureType,
    IsReversed: 'false',
    IsCanceled: String(t.canceled),
    IsRefunded: String(refunded),
  };
}
