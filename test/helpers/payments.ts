// Request builders for payment tests and the browser-less 3D step: GET the redirect page, POST
// the outcome, and follow the auto-submitted return form as a browser would.
import type { Merchant } from './gateway.ts';

export const CARDS = {
  approved: '4111111111111111',
  mastercard: '5555555555554444',
  troy: '9792030000000004',
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
}

/** Opens the redirect page and submits the outcome; returns the auto-submit form's target. */
export async function completeThreeDs(redirectUrl: string, outcome: 'approve' | 'decline'): Promise<ThreeDsResult> {
  const page = await fetch(redirectUrl);
  const pageHtml = await page.text();
  if (page.status !== 200) return { pageStatus: page.status, pageHtml };
  const res = await fetch(redirectUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `outcome=${outcome}` });
  const returnHtml = await res.text();
  const action = /<form id="return" method="post" action="([^"]+)"/.exec(returnHtml)?.[1];
  const token = /name="transaction_token" value="([^"]+)"/.exec(returnHtml)?.[1];
  return { pageStatus: page.status, pageHtml, returnStatus: res.status, returnHtml, returnUrl: action?.replace(/&amp;/g, '&'), returnToken: token };
}

/** Posts the return form to the merchant's callback as the customer's browser would. */
export async function followReturnPost(url: string, token: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `transaction_token=${token}` });
  await res.text();
  return res.status;
}
