// The emulated PosNet 3-D service (3DSWebService/YKBPaymentService): the shopper's browser posts the
// sealed form the merchant got from oosRequestData (posnetData, posnetData2, digest) with the
// merchant's mid, posnetID and merchantReturnURL. The gate finds the session the data was sealed
// for, then the issuer's ACS challenges the shopper (or answers at once for a test card that
// needs no challenge) and a page posts the result to merchantReturnURL: MerchantPacket,
// BankPacket and Sign, sealed with the bank's key; only oosResolveMerchantData opens them.
import { outcomeOf, maskPan } from '../bank/cards.ts';
import { acsPage, autoPostPage, errorPage } from '../bank/pages.ts';
import { html, type BankAnswer } from '../bank/server.ts';
import type { PosnetBooks, Session } from './books.ts';
import { seal, type Merchant } from './hash.ts';
import { acsUrl } from '../bank/acs.ts';

export interface GateContext {
  books: PosnetBooks;
  merchant: Merchant;
  bankKey: Buffer;
  baseUrl: string;
  now: Date;
}

const BANK = 'Yapı Kredi PosNet';
const refuse = (message: string) => html(400, errorPage(BANK, message));

export function openGate(ctx: GateContext, form: URLSearchParams): BankAnswer {
  if (form.get('mid') !== ctx.merchant.merchantId || form.get('posnetID') !== ctx.merchant.posnetId) return refuse('Üye işyeri bilgileri hatalı (mid / posnetID).');
  const data1 = form.get('posnetData') ?? '';
  const data2 = form.get('posnetData2') ?? '';
  const session = ctx.books.sessions.get(data1.slice(0, 24).toLowerCase());
  if (session === undefined || seal(ctx.bankKey, data1, data2) !== (form.get('digest') ?? '')) return refuse('Şifreli veri doğrulanamadı.');
  if (session.packets !== null || session.callbackUrl !== null) return refuse('Bu işlem daha önce yapılmış.');
  const callbackUrl = form.get('merchantReturnURL') ?? '';
  if (!/^https?:\/\//.test(callbackUrl)) return refuse('merchantReturnURL eksik.');
  session.callbackUrl = callbackUrl;
  const preset = outcomeOf(session.cardNumber, { year: session.expDate.slice(0, 2), month: session.expDate.slice(2, 4) }, ctx.now).mdStatus;
  if (preset !== null) return html(200, answer(ctx, session, preset));
  return { redirect: acsUrl(ctx.baseUrl, session.id) };
}

export function acs(ctx: GateContext, id: string, step: 'page' | 'complete', method: string, raw: string): BankAnswer | null {
  const session = ctx.books.sessions.get(id);
  if (session === undefined || session.callbackUrl === null || session.packets !== null) return null;
  if (step === 'page') return html(200, acsPage(BANK, acsUrl(ctx.baseUrl, id, 'complete'), { amount: session.amount.toString(), currency: session.currency, cardMasked: maskPan(session.cardNumber) }));
  if (method !== 'POST') return null;
  return html(200, answer(ctx, session, new URLSearchParams(raw).get('decision') === 'approve' ? '1' : '0'));
}

/** Seals the shopper's result and posts it to the merchant. */
function answer(ctx: GateContext, session: Session, mdStatus: string): string {
  session.mdStatus = mdStatus;
  const bank = `${session.id.toUpperCase()}${seal(ctx.bankKey, 'bank', session.id, mdStatus).slice(0, 40)}`;
  const merchant = seal(ctx.bankKey, 'merchant', session.id, session.xid);
  session.packets = { bank, merchant, sign: seal(ctx.bankKey, bank, merchant) };
  return autoPostPage(BANK, 'posnet-3ds-result', session.callbackUrl!, { MerchantPacket: merchant, BankPacket: bank, Sign: session.packets.sign });
}
