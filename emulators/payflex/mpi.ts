// The emulated MPI (POST /MPIAPI/MPI_Enrollment.aspx): the merchant's server asks whether a card is
// in 3-D Secure; an enrolled card gets its ACS's address and the form (PaReq, TermUrl, MD) the
// shopper's browser posts there. The ACS (/_emulator/acs/<token>) shows the Approve/Decline page
// (or answers at once for a test card whose ACS does not challenge); its result goes back through
// the browser to SuccessUrl or FailureUrl with the MPI's fields, unsigned, as VakıfBank's do. The
// real ACS posts PaRes to the MPI (TermUrl), which then posts to the merchant; the emulator makes
// the two hops one.
import { randomBytes } from 'node:crypto';
import { acsUrl, isHttpUrl } from '../bank/acs.ts';
import { bankPages } from '../bank/pages.ts';
import { outcomeOf, maskPan } from '../bank/cards.ts';
import { CURRENCIES, minorUnits, type PayflexTerminal } from './config.ts';
import type { Enrollment, PayflexState } from './state.ts';
import { documentXml } from './xml.ts';

export interface MpiContext {
  state: PayflexState;
  terminal: PayflexTerminal;
  now: Date;
  baseUrl: string;
}

const pages = bankPages({ bank: 'VakıfBank', resultFormId: 'mpi-result' });

/** The MPI's answer: VERes with Status Y and the ACS form, or Status E with the error. */
function enrollmentXml(id: string, veres: Record<string, string>, error?: { code: string; message: string }): string {
  return documentXml('IPaySecure', {
    Message: { VERes: { Version: '1.0.2', ...veres } },
    VerifyEnrollmentRequestId: id,
    MessageErrorCode: error?.code ?? '',
    ErrorMessage: error?.message ?? '',
  });
}

/** What is wrong with an enrollment request; null when nothing is. */
function enrollmentProblem(f: (name: string) => string, ctx: MpiContext): { code: string; message: string } | null {
  if (f('MerchantId') !== ctx.terminal.merchantId || f('MerchantPassword') !== ctx.terminal.password) return { code: '2005', message: 'Merchant cannot be found for this bank' };
  if (minorUnits(f('PurchaseAmount')) === null) return { code: '1002', message: 'PurchaseAmount is invalid' };
  if (!CURRENCIES.has(f('Currency'))) return { code: '1003', message: 'Currency is invalid' };
  if (!/^\d{12,19}$/.test(f('Pan')) || !/^\d{4}$/.test(f('ExpiryDate'))) return { code: '1004', message: 'Pan or ExpiryDate is invalid' };
  if (!isHttpUrl(f('SuccessUrl')) || !isHttpUrl(f('FailureUrl'))) return { code: '1005', message: 'SuccessUrl and FailureUrl must be http(s) addresses' };
  if (!/^[\w-]{1,64}$/.test(f('VerifyEnrollmentRequestId'))) return { code: '1006', message: 'VerifyEnrollmentRequestId is invalid' };
  if (ctx.state.enrollments.has(f('VerifyEnrollmentRequestId'))) return { code: '1007', message: 'VerifyEnrollmentRequestId was used before' };
  return null;
}

/** POST /MPIAPI/MPI_Enrollment.aspx. */
export function enroll(raw: string, ctx: MpiContext): string {
  const form = new URLSearchParams(raw);
  const f = (name: string) => form.get(name) ?? '';
  const problem = enrollmentProblem(f, ctx);
  if (problem) return enrollmentXml(f('VerifyEnrollmentRequestId'), { Status: 'E' }, problem);
  const expiry = f('ExpiryDate');
  const outcome = outcomeOf(f('Pan'), { month: expiry.slice(2), year: expiry.slice(0, 2) }, ctx.now);
  const e = ctx.state.newEnrollment({
    id: f('VerifyEnrollmentRequestId'),
    merchantId: f('MerchantId'),
    pan: f('Pan'),
    expiry,
    amount: minorUnits(f('PurchaseAmount'))!,
    currency: f('Currency'),
    installments: f('InstallmentCount'),
    successUrl: f('SuccessUrl'),
    failureUrl: f('FailureUrl'),
    sessionInfo: f('SessionInfo'),
    preset: outcome.mdStatus,
  });
  return enrollmentXml(e.id, { Status: 'Y', PaReq: e.paReq, TermUrl: `${ctx.baseUrl}/MPIAPI/MPI_Result.aspx`, MD: e.md, ACSUrl: acsUrl(ctx.baseUrl, e.token), ACTUrl: '' });
}

/** The ACS: the browser posts the MPI's form (GET is refused); a test card without a challenge answers at once. */
export function acsOpen(token: string, raw: string, ctx: MpiContext): { status: number; html: string } | null {
  const e = ctx.state.enrollmentByToken(token);
  if (!e || e.status !== null) return null;
  const form = new URLSearchParams(raw);
  if (form.get('MD') !== e.md || form.get('PaReq') !== e.paReq) return { status: 400, html: pages.errorPage('PaReq ve MD bu doğrulamaya ait değil') };
  // The shared cards' mdStatus: 0 not authenticated, 4 an attempt ("half secure").
  if (e.preset !== null) return { status: 200, html: result(e, e.preset === '4' ? 'A' : 'N') };
  return { status: 200, html: pages.acsPage(acsUrl(ctx.baseUrl, e.token, 'complete'), { amount: String(e.amount), currency: e.currency, cardMasked: maskPan(e.pan) }) };
}

/** The shopper's answer on the ACS page; null when the challenge is unknown or already answered. */
export function acsComplete(token: string, decision: string, ctx: MpiContext): string | null {
  const e = ctx.state.enrollmentByToken(token);
  if (!e || e.status !== null) return null;
  return result(e, decision === 'approve' ? 'Y' : 'N');
}

/** ECI as the schemes write it: Visa 05 authenticated / 06 attempt, Mastercard 02 / 01. */
function eciOf(pan: string, status: string): string {
  const mastercard = /^(5[1-5]|2[2-7])/.test(pan);
  if (status === 'Y') return mastercard ? '02' : '05';
  return mastercard ? '01' : '06';
}

/** Records the MPI's result and answers the page posting it to the merchant. */
function result(e: Enrollment, status: 'Y' | 'A' | 'N'): string {
  e.status = status;
  if (status !== 'N') {
    e.eci = eciOf(e.pan, status);
    e.cavv = randomBytes(20).toString('base64');
  }
  const failed = status === 'N';
  return pages.autoPostPage(failed ? e.failureUrl : e.successUrl, {
    MerchantId: e.merchantId,
    SubMerchantNo: '0',
    SubMerchantName: '',
    SubMerchantNumber: '',
    PurchAmount: String(e.amount),
    PurchCurrency: e.currency,
    VerifyEnrollmentRequestId: e.id,
    SessionInfo: e.sessionInfo,
    InstallmentCount: e.installments,
    Pan: e.pan,
    Expiry: e.expiry,
    Xid: randomBytes(15).toString('base64'),
    Status: status,
    Cavv: e.cavv,
    Eci: e.eci,
    ExpSign: '',
    ErrorCode: '',
    ErrorMessage: failed ? 'Kart sahibi doğrulanamadı' : '',
  });
}
