// The order checkout page as a browser without JavaScript uses it: submit the card form, open the
// 3D page, answer it, and read where the customer ends up.
import { CARDS, postCallback, returnPostOf, visitAcs } from './payments.ts';

export interface CardForm {
  holder_name?: string;
  number?: string;
  expiry_month?: string;
  expiry_year?: string;
  security_code?: string;
  installment_number?: string;
}

export const GOOD_CARD: Required<CardForm> = {
  holder_name: 'AYSE YILMAZ',
  number: '4111 1111 1111 1111',
  expiry_month: '12',
  expiry_year: '2030',
  security_code: '123',
  installment_number: '1',
};

/** `headers` as a browser would add them (`Accept-Language`). */
export async function submitCard(checkoutUrl: string, form: CardForm = {}, headers: Record<string, string> = {}): Promise<{ status: number; location: string | null; html: string }> {
  const body = new URLSearchParams({ ...GOOD_CARD, ...form } as Record<string, string>).toString();
  const res = await fetch(checkoutUrl, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

export interface AcsOutcome {
  status: number;
  /** Where a failed payment sends the customer (back to the order page). */
  location: string | null;
  html: string;
  returnUrl?: string;
  returnToken?: string;
}

/** Opens the 3D page the checkout redirected to, answers the ACS and posts its answer to the callback. */
export async function answerAcs(origin: string, location: string, outcome: 'approve' | 'decline'): Promise<AcsOutcome> {
  const visit = await visitAcs(new URL(location, origin).toString(), outcome);
  if (!visit.callbackUrl || !visit.fields) throw new Error(`3D page answered ${visit.pageStatus}`);
  const back = await postCallback(visit.callbackUrl, visit.fields);
  return {
    status: back.status,
    location: back.location,
    html: back.html,
    ...returnPostOf(back.html),
  };
}

/** Card form, 3D page and answer in one go. */
export async function payOnCheckout(checkoutUrl: string, form: CardForm, outcome: 'approve' | 'decline' = 'approve'): Promise<AcsOutcome & { submit: Awaited<ReturnType<typeof submitCard>> }> {
  const submit = await submitCard(checkoutUrl, form);
  if (submit.status !== 303 || !submit.location) throw new Error(`card form answered ${submit.status}: ${submit.html.slice(0, 400)}`);
  return { ...(await answerAcs(new URL(checkoutUrl).origin, submit.location, outcome)), submit };
}

export { CARDS };
