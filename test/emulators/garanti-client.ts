// A merchant's side of Garanti's protocol for the emulator tests: the gate form, the ACS pages, and
// GVPSRequest documents signed as mewebstudio/pos signs them.
import { XMLParser } from 'fast-xml-parser';
import escapeHtml from 'escape-html';
import type { GarantiEmulator } from '../../emulators/garanti/server.ts';
import { threeDHash, xmlHashData, type ThreeDHashFields } from '../../emulators/garanti/hash.ts';

export const SUCCESS_URL = 'https://shop.example/garanti/success';
export const ERROR_URL = 'https://shop.example/garanti/error';

export interface Form {
  action: string;
  fields: Record<string, string>;
}

/** The gate form a merchant posts for one order (as mewebstudio's GarantiPosRequestDataMapper builds it). */
export function gateForm(emu: GarantiEmulator, o: { orderId: string; amount: string; level: string; card: string; installments?: string; currency?: string; successUrl?: string; errorUrl?: string }): Record<string, string> {
  const fields: Record<string, string> = {
    mode: 'TEST',
    apiversion: '512',
    terminalprovuserid: emu.provisionUser,
    terminaluserid: emu.provisionUser,
    terminalmerchantid: emu.merchantId,
    terminalid: emu.terminalId,
    orderid: o.orderId,
    customeremailaddress: 'shopper@example.com',
    customeripaddress: '127.0.0.1',
    txntype: 'sales',
    txnamount: o.amount,
    txncurrencycode: o.currency ?? '949',
    txninstallmentcount: o.installments ?? '',
    successurl: o.successUrl ?? SUCCESS_URL,
    errorurl: o.errorUrl ?? ERROR_URL,
    secure3dsecuritylevel: o.level,
    lang: 'tr',
    cardnumber: o.card,
    cardexpiredatemonth: '12',
    cardexpiredateyear: '30',
    cardcvv2: '000',
  };
  fields.secure3dhash = threeDHash(fields as unknown as ThreeDHashFields, emu.storeKey, emu.provisionPassword);
  return fields;
}

export async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; html: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  return { status: res.status, html: await res.text() };
}

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Every form of a page, with its action and hidden/submitted fields. */
export function formsOf(html: string): Form[] {
  return [...html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].map((m) => ({
    action: unescape(m[1]!),
    fields: Object.fromEntries([...m[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((i) => [unescape(i[1]!), unescape(i[2]!)])),
  }));
}

/** Posts the gate form, answers the ACS page (when there is one) and reads the callback the page would post. */
export async function threeDSecure(emu: GarantiEmulator, form: Record<string, string>, decision: 'approve' | 'decline' = 'approve'): Promise<Form> {
  const gate = await postForm(emu.gateUrl, form);
  if (gate.status !== 200) throw new Error(`gate answered ${gate.status}: ${gate.html}`);
  let forms = formsOf(gate.html);
  const acs = forms.find((f) => f.fields.decision === decision);
  if (acs) {
    const done = await postForm(acs.action, acs.fields);
    if (done.status !== 200) throw new Error(`ACS answered ${done.status}`);
    forms = formsOf(done.html);
  }
  return forms[0]!;
}

export interface XmlTxn {
  type: string;
  orderId: string;
  amount?: string;
  currency?: string;
  card?: { number: string; expire: string; cvv: string };
  installments?: string;
  secure3d?: { md: string; xid: string; cavv: string; eci: string };
  originalRetrefNum?: string;
  /** Overrides (wrong user, bad hash...). */
  provUser?: string;
  password?: string;
  hashData?: string;
}

/** A GVPSRequest as mewebstudio/pos sends it; HashData over order, terminal, card, amount, currency. */
export function gvpsRequest(emu: GarantiEmulator, t: XmlTxn): string {
  const reversal = t.type === 'refund' || t.type === 'void';
  const user = t.provUser ?? (reversal ? emu.refundUser : emu.provisionUser);
  const password = t.password ?? (reversal ? emu.refundPassword : emu.provisionPassword);
  const amount = t.amount ?? (t.type === 'void' ? '100' : '1');
  const currency = t.currency ?? '949';
  const cardNumber = t.card?.number ?? '';
  const hash = t.hashData ?? xmlHashData({ orderId: t.orderId, terminalId: emu.terminalId, cardNumber, amount, currency }, password);
  const e = (s: string) => escapeHtml(s);
  const secure3d = t.secure3d
    ? `<CardholderPresentCode>13</CardholderPresentCode><Secure3D><AuthenticationCode>${e(t.secure3d.cavv)}</AuthenticationCode><SecurityLevel>${e(t.secure3d.eci)}</SecurityLevel><TxnID>${e(t.secure3d.xid)}</TxnID><Md>${e(t.secure3d.md)}</Md></Secure3D>`
    : '<CardholderPresentCode>0</CardholderPresentCode>';
  return `<?xml version="1.0" encoding="UTF-8"?>
<GVPSRequest><Mode>TEST</Mode><Version>v0.01</Version>
<Terminal><ProvUserID>${e(user)}</ProvUserID><HashData>${hash}</HashData><UserID>${e(user)}</UserID><ID>${emu.terminalId}</ID><MerchantID>${emu.merchantId}</MerchantID></Terminal>
<Customer><IPAddress>127.0.0.1</IPAddress><EmailAddress>shopper@example.com</EmailAddress></Customer>
<Card><Number>${cardNumber}</Number><ExpireDate>${t.card?.expire ?? ''}</ExpireDate><CVV2>${t.card?.cvv ?? ''}</CVV2></Card>
<Order><OrderID>${e(t.orderId)}</OrderID><GroupID></GroupID></Order>
<Transaction><Type>${t.type}</Type><InstallmentCnt>${t.installments ?? ''}</InstallmentCnt><Amount>${amount}</Amount><CurrencyCode>${currency}</CurrencyCode>${secure3d}<MotoInd>N</MotoInd>${t.originalRetrefNum ? `<OriginalRetrefNum>${t.originalRetrefNum}</OriginalRetrefNum>` : ''}</Transaction>
</GVPSRequest>`;
}

const parser = new XMLParser({ parseTagValue: false, ignoreAttributes: true });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = any;

export async function xml(emu: GarantiEmulator, t: XmlTxn, signal?: AbortSignal): Promise<Answer> {
  const res = await fetch(emu.apiUrl, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: gvpsRequest(emu, t), signal });
  if (res.status !== 200) throw new Error(`API answered ${res.status}`);
  return (parser.parse(await res.text()) as Answer).GVPSResponse;
}
