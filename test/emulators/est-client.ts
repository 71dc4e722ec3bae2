// A merchant's side of the EST emulator for the tests: the signed 3D gate form, the shopper's trip
// through the gate and the ACS, and XML API calls.
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { estVer3Hash } from '../../emulators/est/hash.ts';
import type { EstEmulator } from '../../emulators/est/server.ts';

export const OK_URL = 'https://shop.example/est/ok';
export const FAIL_URL = 'https://shop.example/est/fail';

/** The merchant's gate form (as mewebstudio/pos EstPosRequestDataMapper builds it), signed with ver3. */
export function gateForm(emulator: EstEmulator, overrides: Record<string, string> = {}, storeKey = emulator.storeKey): Record<string, string> {
  const fields: Record<string, string> = {
    clientid: emulator.clientId,
    storetype: '3d',
    amount: '100.25',
    oid: `order${Math.random().toString(36).slice(2, 10)}`,
    okUrl: OK_URL,
    failUrl: FAIL_URL,
    rnd: 'rand123',
    lang: 'tr',
    currency: '949',
    taksit: '',
    islemtipi: 'Auth',
    hashAlgorithm: 'ver3',
    pan: '4355084355084358',
    Ecom_Payment_Card_ExpDate_Month: '12',
    Ecom_Payment_Card_ExpDate_Year: '30',
    cv2: '000',
    ...overrides,
  };
  return { ...fields, hash: estVer3Hash(fields, storeKey) };
}

export const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

/** The action and hidden fields of an auto-posting page. */
export function parseAutoPost(html: string): { action: string; fields: Record<string, string> } {
  const action = decode(/<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? '');
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[decode(match[1]!)] = decode(match[2]!);
  return { action, fields };
}

const decode = (text: string) => text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/** Posts the form to the gate, follows it to the ACS and answers there: the callback the merchant gets. */
export async function throughAcs(emulator: EstEmulator, form: Record<string, string>, decision: 'approve' | 'decline' = 'approve') {
  const atGate = await postForm(emulator.gateUrl, form);
  if (atGate.status !== 303) throw new Error(`gate answered ${atGate.status}: ${await atGate.text()}`);
  const acsUrl = atGate.headers.get('location')!;
  const acs = await fetch(acsUrl);
  const acsHtml = await acs.text();
  const completeAction = /<form method="post" action="([^"]*)"/.exec(acsHtml)?.[1];
  if (!completeAction) throw new Error(`no ACS form: ${acsHtml}`);
  const answered = await postForm(completeAction, { decision });
  const html = await answered.text();
  return { acsUrl, acsHtml, html, ...parseAutoPost(html) };
}

const builder = new XMLBuilder({ format: false });
const parser = new XMLParser({ parseTagValue: false, ignoreDeclaration: true });

export const cc5Request = (fields: Record<string, unknown>) => `<?xml version="1.0" encoding="ISO-8859-9"?>\n${builder.build({ CC5Request: fields }) as string}`;

/** One XML API call, sent as EST clients do: urlencoded `DATA=<xml>` (or the raw XML with `raw`). */
export async function callApi(emulator: EstEmulator, fields: Record<string, unknown>, options: { raw?: boolean; credentials?: Record<string, string>; signal?: AbortSignal } = {}) {
  const xml = cc5Request({ Name: emulator.apiUser, Password: emulator.apiPassword, ClientId: emulator.clientId, ...options.credentials, ...fields });
  const response = await fetch(emulator.apiUrl, {
    method: 'POST',
    headers: { 'content-type': options.raw ? 'text/xml' : 'application/x-www-form-urlencoded' },
    body: options.raw ? xml : `DATA=${encodeURIComponent(xml)}`,
    signal: options.signal,
  });
  const text = await response.text();
  if (response.status !== 200) return { status: response.status, text, answer: {} as Record<string, unknown> };
  return { status: response.status, text, answer: (parser.parse(text) as { CC5Response: Record<string, unknown> }).CC5Response };
}
