// KuveytPOS's wire, as mewebstudio/pos src/Serializer/KuveytPosSerializer.php writes and reads it.
// Payments (the 3-D enrollment, the provision, a sale without 3-D) are one <KuveytTurkVPosMessage>
// document declared ISO-8859-1; refunds, cancels and the order inquiry are SOAP calls to the
// bank's WCF service, every element in its `ser:` namespace. The bank answers a payment with a
// <VPosTransactionResponseContract>, a SOAP call with an envelope, and the 3-D enrollment with an
// HTML page whose form the shopper's browser must post (to the issuer's ACS, or, when the bank
// refused at once, back to FailUrl with its AuthenticationResponse). Values stay text: amounts are
// KuveytPOS's minor units ("101") or the inquiry's decimals ("10.01"), codes keep their zeros.
import { XMLParser } from 'fast-xml-parser';

export type KuveytValue = string | { readonly [name: string]: KuveytValue };
export type KuveytMessage = Readonly<Record<string, KuveytValue>>;

/** A request: a payment message, or a SOAP call named by its action (DrawBack, SaleReversal...). */
export type KuveytRequest = { kind: 'message'; message: KuveytMessage } | { kind: 'soap'; action: string; request: KuveytMessage };

/** A response contract: its own fields as text, and the request it echoes (VPosMessage; empty when absent). */
export interface Contract {
  fields: Readonly<Record<string, string>>;
  echo: Readonly<Record<string, string>>;
}

export interface SoapResult {
  errors: Array<{ code: string; message: string }>;
  /** The result's Value: a contract's flat fields, or the inquiry's order contracts. */
  value: Readonly<Record<string, string>>;
  orders: Array<Readonly<Record<string, string>>>;
}

export type KuveytAnswer =
  | ({ kind: 'contract' } & Contract)
  | { kind: 'soap'; operation: string; result: SoapResult }
  | { kind: 'form'; action: string; inputs: Readonly<Record<string, string>> };

export const SOAP_NAMESPACE = 'http://boa.net/BOA.Integration.VirtualPos/Service';
/** The SOAPAction header of a call (mewebstudio's sendSoapRequest). */
export const soapAction = (action: string): string => `${SOAP_NAMESPACE}/IVirtualPosService/${action}`;

/** &, < and > escaped; anything past ASCII as a character reference, so the bytes are the same in the declared ISO-8859-1 and in UTF-8. */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[^ -~\t\n\r]/gu, (c) => `&#${c.codePointAt(0)};`);
}

function elements(message: KuveytMessage, prefix: string): string {
  return Object.entries(message)
    .map(([name, value]) => `<${prefix}${name}>${typeof value === 'string' ? escapeText(value) : elements(value, prefix)}</${prefix}${name}>`)
    .join('');
}

/** The request's body, byte for byte as mewebstudio's serializer writes it (for ASCII text). */
export function kuveytRequestXml(request: KuveytRequest): string {
  if (request.kind === 'message') return `<?xml version="1.0" encoding="ISO-8859-1"?>\n<KuveytTurkVPosMessage>${elements(request.message, '')}</KuveytTurkVPosMessage>\n`;
  const body = elements({ [request.action]: { request: request.request } }, 'ser:');
  return `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ser="${SOAP_NAMESPACE}"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
}

const parser = new XMLParser({
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreAttributes: true,
  removeNSPrefix: true,
  trimValues: true,
  processEntities: true,
  // The bank's documents declare no entities; refusing them keeps a hostile body from expanding.
  htmlEntities: false,
  isArray: (name) => name === 'OrderContract' || name === 'Result',
});

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function flat(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function contractOf(value: unknown): Contract | null {
  return isObject(value) ? { fields: flat(value), echo: flat(value.VPosMessage) } : null;
}

function soapOf(envelope: unknown): KuveytAnswer | null {
  const body = isObject(envelope) ? envelope.Body : undefined;
  if (!isObject(body) || 'Fault' in body) return null;
  const [name, response] = Object.entries(body).find(([, v]) => isObject(v)) ?? [];
  if (name === undefined || !name.endsWith('Response') || !isObject(response)) return null;
  const operation = name.slice(0, -'Response'.length);
  const result = response[`${operation}Result`];
  if (!isObject(result)) return null;
  const results = isObject(result.Results) && Array.isArray(result.Results.Result) ? (result.Results.Result as unknown[]) : [];
  const value = isObject(result.Value) ? result.Value : {};
  const orders = Array.isArray(value.OrderContract) ? (value.OrderContract as unknown[]).map(flat) : [];
  const errors = results.map(flat).map((r) => ({ code: r.ErrorCode ?? '', message: r.ErrorMessage ?? '' }));
  return { kind: 'soap', operation, result: { errors, value: flat(value), orders } };
}

/** A KuveytPOS XML document (a contract or a SOAP envelope); null when the text is not one. */
export function parseKuveytXml(text: string): KuveytAnswer | null {
  let doc: unknown;
  try {
    doc = parser.parse(text, true);
  } catch {
    return null;
  }
  if (!isObject(doc)) return null;
  if ('VPosTransactionResponseContract' in doc) {
    const contract = contractOf(doc.VPosTransactionResponseContract);
    return contract === null ? null : { kind: 'contract', ...contract };
  }
  return 'Envelope' in doc ? soapOf(doc.Envelope) : null;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(attributes);
  return match ? decodeEntities(match[1] ?? match[2] ?? match[3] ?? '') : undefined;
}

/** Buttons, not data (mewebstudio leaves them out too). */
const BUTTONS = new Set(['submit', 'submitBtn']);

/**
 * The first form of an HTML page: where it posts and its named inputs with a value. The bank's
 * pages carry scripts and tags of their own (<APM_DO_NOT_TOUCH>), so only tags are read.
 */
export function parseHtmlForm(html: string): { action: string; inputs: Record<string, string> } | null {
  const form = /<form\b([^>]*)>/i.exec(html);
  if (!form) return null;
  const rest = html.slice(form.index + form[0].length);
  const end = rest.search(/<\/form>/i);
  const inputs: Record<string, string> = {};
  for (const input of (end < 0 ? rest : rest.slice(0, end)).matchAll(/<input\b([^>]*)>/gi)) {
    const name = attribute(input[1]!, 'name');
    const value = attribute(input[1]!, 'value');
    if (name && value !== undefined && !BUTTONS.has(name)) inputs[name] = value;
  }
  return { action: attribute(form[1]!, 'action') ?? '', inputs };
}

/** An answer from the body: a KuveytPOS document, or the enrollment's HTML form; null when it is neither. */
export function parseKuveytAnswer(text: string): KuveytAnswer | null {
  const xml = parseKuveytXml(text);
  if (xml !== null) return xml;
  const form = /<html\b/i.test(text) ? parseHtmlForm(text) : null;
  return form === null || form.action === '' ? null : { kind: 'form', ...form };
}

/** The AuthenticationResponse a form carries: URL-encoded XML (as the bank posts it), or the XML itself. */
export function authenticationResponseOf(value: string): Contract | null {
  let text = value.trim();
  if (!text.startsWith('<')) {
    try {
      text = decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return null;
    }
  }
  const answer = parseKuveytXml(text);
  return answer?.kind === 'contract' ? { fields: answer.fields, echo: answer.echo } : null;
}
