// Request builders for payment tests and the browser-less 3D step as a browser without script
// takes it: GET the redirect page (sent on to the simulator's ACS), answer the ACS, post its
// answer to the payment's callback address, and read the auto-submitted return form.
import type { Merchant } from './gateway.ts';

export const CARDS = {
  approved: '4111111111111111',
  mastercard: '5555555555554444',
  troy: '9792030000000018',
  insufficientFunds: '4000000000000002',
  expired: '4000000000000069',
  providerError: '4000000000000119',
  timeout: '4000000000009995',
  storageRefused: '4000000000000341',
  refundRejected: '5105105105105100',
} as const;

export function paymentBody(m: Merchant, over: { transaction?: Record<string, unknown>; card?: Record<string, unknown> | null; customer?: Record<string, unknown> } = {}) {
  const body: Record<string, unknown> = {
    transaction: {
      channel_token: m.channelToken,
      channel_reference: 'ORDER-1001',
      amount: '100.00',
      currency: 'TRY',
      installment_number: 1,
      ip: '203.0.113.7',
      callback_url: 'http://127.0.0.1:9/callback',
      ...over.transaction,
    },
    customer: { channel_reference: 'CUST-1', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', ...over.customer },
  };
  if (over.card !== null) {
    body.card = { holder_name: 'AYSE YILMAZ', number: CARDS.approved, security_code: '123', expiry_month: '12', expiry_year: '2030', ...over.card };
  }
  return body;
}

export interface ThreeDsResult {
  pageStatus: number;
  pageHtml: string;
  returnStatus?: number;
  returnHtml?: string;
  returnUrl?: string;
  returnToken?: string;
  /** The callback the ACS posted to, and its fields (to post them again). */
  callbackUrl?: string;
  callbackFields?: Record<string, string>;
}

/** The auto-posted form of a page: its id, target and hidden fields. */
export function autoPostForm(html: string): { id: string; action: string; fields: Record<string, string> } | null {
  const form = /<form id="([^"]+)" method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
  if (!form) return null;
  const unescape = (v: string) => v.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  const fields = Object.fromEntries([...form[3]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [unescape(m[1]!), unescape(m[2]!)]));
  return { id: form[1]!, action: unescape(form[2]!), fields };
}

export interface AcsVisit {
  /** The redirect page's own status: 303 on to the ACS, else its notice (404, 409, 410). */
  redirectStatus: number;
  /** The ACS page (or the redirect page's notice). */
  pageStatus: number;
  pageHtml: string;
  /** Where the ACS posts its answer, and what: set once answered. */
  callbackUrl?: string;
  fields?: Record<string, string>;
}

/** Opens the redirect page, follows it to the simulator's ACS and presses `outcome` there (null: only opens it). */
export async function visitAcs(redirectUrl: string, outcome: 'approve' | 'decline' | null, headers: Record<string, string> = {}): Promise<AcsVisit> {
  const first = await fetch(redirectUrl, { redirect: 'manual', headers });
  const firstHtml = await first.text();
  const location = first.headers.get('location');
  if (first.status !== 303 || !location) return { redirectStatus: first.status, pageStatus: first.status, pageHtml: firstHtml };
  const acsUrl = new URL(location, redirectUrl).toString();
  const page = await fetch(acsUrl, { headers });
  const pageHtml = await page.text();
  const visit: AcsVisit = { redirectStatus: first.status, pageStatus: page.status, pageHtml };
  if (page.status !== 200 || outcome === null) return visit;
  const answer = await fetch(acsUrl, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body: `outcome=${outcome}` });
  const form = autoPostForm(await answer.text());
  if (!form) throw new Error(`the ACS answered ${answer.status} without a form`);
  return { ...visit, callbackUrl: form.action, fields: form.fields };
}

/**
 * What the simulator's ACS posts for a payment (the address read from the payment row, so the
 * redirect page is not opened by asking): the callback address and its signed fields.
 */
export async function acsAnswerOf(db: { payment: { findUniqueOrThrow(args: { where: { id: string } }): Promise<{ threeDsRedirect: unknown }> } }, paymentId: string, outcome: 'approve' | 'decline'): Promise<{ callbackUrl: string; fields: Record<string, string> }> {
  const redirect = (await db.payment.findUniqueOrThrow({ where: { id: paymentId } })).threeDsRedirect as { kind: string; url?: string } | null;
  if (redirect?.kind !== 'url' || !redirect.url) throw new Error('the payment has no ACS address');
  const answer = await fetch(redirect.url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `outcome=${outcome}` });
  const form = autoPostForm(await answer.text());
  if (!form) throw new Error(`the ACS answered ${answer.status} without a form`);
  return { callbackUrl: form.action, fields: form.fields };
}

/** Posts the ACS's answer to the payment's callback address, as the shopper's browser does. */
export async function postCallback(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; location: string | null; html: string }> {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

/** The return POST a page carries (contract convention 11): where to, and the transaction_token. */
export function returnPostOf(html: string): { returnUrl?: string; returnToken?: string } {
  const form = autoPostForm(html);
  return form?.id === 'return' ? { returnUrl: form.action, returnToken: form.fields.transaction_token } : {};
}

/** The whole 3D step: ACS answered with `outcome`, callback posted; returns the auto-submit form's target. */
export async function completeThreeDs(redirectUrl: string, outcome: 'approve' | 'decline'): Promise<ThreeDsResult> {
  const visit = await visitAcs(redirectUrl, outcome);
  if (!visit.callbackUrl || !visit.fields) return { pageStatus: visit.pageStatus, pageHtml: visit.pageHtml };
  const back = await postCallback(visit.callbackUrl, visit.fields);
  return {
    pageStatus: visit.pageStatus,
    pageHtml: visit.pageHtml,
    returnStatus: back.status,
    returnHtml: back.html,
    ...returnPostOf(back.html),
    callbackUrl: visit.callbackUrl,
    callbackFields: visit.fields,
  };
}

/** Posts the return form to the merchant's callback as the customer's browser would. */
export async function followReturnPost(url: string, token: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `transaction_token=${token}` });
  await res.text();
  return res.status;
}
