// PayFor's XML (XMLGate.aspx): a request is one flat <PayforRequest> document; an answer is a flat
// <PayforResponse>, or, for the history report, a <TxnHistoryReport> of <PaymentRequestExtended>
// entries each holding one flat <PaymentRequest>. Every value stays text (amounts are PayFor's
// decimals, "100.25"; codes keep their letters and zeros). The bank sometimes ends an element's
// text with "\r\n" and indentation, which would read as a value, so those runs go before parsing
// (as mewebstudio/pos src/Serializer/PayForPosSerializer.php does).
import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/** A request's fields in PayFor's order. */
export type PayforRequest = Readonly<Record<string, string>>;

/** A flat element's children as text (nested elements left out). */
export type PayforFields = Readonly<Record<string, string>>;

export type PayforAnswer = { kind: 'response'; fields: PayforFields } | { kind: 'history'; entries: PayforFields[] };

const builder = new XMLBuilder({ format: false, suppressEmptyNode: false, processEntities: true });
const parser = new XMLParser({
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreAttributes: true,
  trimValues: true,
  processEntities: true,
  // PayFor's answers never declare entities; refusing them keeps a hostile body from expanding.
  htmlEntities: false,
});

/** The request document, byte for byte as mewebstudio's serializer writes it. */
export function payforRequestXml(request: PayforRequest): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ PayforRequest: request }) as string}\n`;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function flat(value: unknown): PayforFields | null {
  if (!isObject(value)) return null;
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** An answer from the body; null when the body is not one of PayFor's documents. */
export function parsePayforAnswer(text: string): PayforAnswer | null {
  let doc: unknown;
  try {
    doc = parser.parse(text.replace(/\r\n\s*/g, ''), true);
  } catch {
    return null;
  }
  if (!isObject(doc)) return null;
  if ('PayforResponse' in doc) {
    const fields = flat(doc.PayforResponse);
    return fields === null ? null : { kind: 'response', fields };
  }
  if ('TxnHistoryReport' in doc) {
    const report = doc.TxnHistoryReport;
    const extended: unknown = isObject(report) ? report.PaymentRequestExtended : undefined;
    const list: unknown[] = Array.isArray(extended) ? extended : extended === undefined ? [] : [extended];
    const entries = list.map((entry) => flat(isObject(entry) ? entry.PaymentRequest : undefined));
    return entries.every((e) => e !== null) ? { kind: 'history', entries: entries as PayforFields[] } : null;
  }
  return null;
}
