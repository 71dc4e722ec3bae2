// The emulated KuveytPOS's XML: a payment request (<KuveytTurkVPosMessage>) or a SOAP call read into
// text fields, and its answers written as the bank writes them (a <VPosTransactionResponseContract>,
// a SOAP envelope of <XResponse><XResult>).
import { XMLParser } from 'fast-xml-parser';

export type Tree = { [name: string]: string | Tree };

const parser = new XMLParser({ parseTagValue: false, ignoreAttributes: true, removeNSPrefix: true, trimValues: true, htmlEntities: false });

const isTree = (value: unknown): value is Tree => value !== null && typeof value === 'object' && !Array.isArray(value);

function parse(raw: string): Tree | null {
  try {
    const doc: unknown = parser.parse(raw, true);
    return isTree(doc) ? doc : null;
  } catch {
    return null;
  }
}

/** A payment message's tree; null when the body is not one. */
export function readMessage(raw: string): Tree | null {
  const message = parse(raw)?.KuveytTurkVPosMessage;
  return isTree(message) ? message : null;
}

/** A SOAP call: its action (the Body's element) and its request; null when the body is not one. */
export function readSoap(raw: string): { action: string; request: Tree } | null {
  const body = parse(raw)?.Envelope;
  const inner = isTree(body) ? body.Body : undefined;
  if (!isTree(inner)) return null;
  const [action, call] = Object.entries(inner)[0] ?? [];
  const request = isTree(call) ? call.request : undefined;
  return action !== undefined && isTree(request) ? { action, request } : null;
}

/** A text field of a tree ('' when absent or not text). */
export const text = (tree: Tree | undefined, name: string): string => {
  const value = tree?.[name];
  return typeof value === 'string' ? value : '';
};

export const child = (tree: Tree | undefined, name: string): Tree | undefined => {
  const value = tree?.[name];
  return isTree(value) ? value : undefined;
};

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function elements(tree: Tree | Tree[]): string {
  if (Array.isArray(tree)) return tree.map(elements).join('');
  return Object.entries(tree)
    .map(([name, value]) => (value === '' ? `<${name}/>` : `<${name}>${typeof value === 'string' ? escape(value) : elements(value)}</${name}>`))
    .join('');
}

export function contractXml(fields: Tree): string {
  return `<?xml version="1.0" encoding="utf-8"?><VPosTransactionResponseContract xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${elements(fields)}</VPosTransactionResponseContract>`;
}

export interface SoapAnswer {
  errors?: Array<{ code: string; message: string }>;
  /** The Value's children: a contract's fields, or the orders (each an <OrderContract>). */
  value: Tree | { orders: Tree[] };
}

export function soapXml(action: string, answer: SoapAnswer): string {
  const errors = answer.errors ?? [];
  const results = errors.map((e) => `<Result><ErrorMessage>${escape(e.message)}</ErrorMessage><ErrorCode>${escape(e.code)}</ErrorCode><IsFriendly>true</IsFriendly><Severity>BusinessError</Severity></Result>`).join('');
  const value = 'orders' in answer.value && Array.isArray(answer.value.orders) ? answer.value.orders.map((o) => `<OrderContract>${elements(o)}</OrderContract>`).join('') : elements(answer.value as Tree);
  return `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><${action}Response xmlns="http://boa.net/BOA.Integration.VirtualPos/Service"><${action}Result>${results === '' ? '<Results/>' : `<Results>${results}</Results>`}<Success>${errors.length === 0}</Success><Value>${value}</Value></${action}Result></${action}Response></s:Body></s:Envelope>`;
}

/** "2024-04-21T19:01:28.95", Istanbul time. */
export const bankTime = (now: Date): string => new Date(now.getTime() + 3 * 3_600_000).toISOString().slice(0, 22);
