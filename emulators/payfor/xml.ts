// The emulated bank's XML: it reads a flat <PayforRequest> and writes a flat <PayforResponse> or a
// <TxnHistoryReport>, with the "\r\n" after every element that PayFor's own answers carry.
import escapeHtml from 'escape-html';
import { XMLParser } from 'fast-xml-parser';

const parser = new XMLParser({ parseTagValue: false, ignoreAttributes: true, trimValues: true, htmlEntities: false });

/** The request's fields; null when the body is not a <PayforRequest>. */
export function parsePayforRequest(raw: string): Record<string, string> | null {
  try {
    const doc = parser.parse(raw, true) as { PayforRequest?: unknown };
    const root = doc.PayforRequest;
    if (root === null || typeof root !== 'object' || Array.isArray(root)) return root === '' ? {} : null;
    return Object.fromEntries(Object.entries(root).map(([k, v]) => [k, typeof v === 'string' ? v : '']));
  } catch {
    return null;
  }
}

const elements = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, value]) => (value === '' ? `<${name} />` : `<${name}>${escapeHtml(value)}</${name}>`))
    .join('\r\n');

export function payforResponseXml(fields: Record<string, string>): string {
  return `<?xml version="1.0" encoding="utf-8"?>\r\n<PayforResponse>\r\n${elements(fields)}\r\n</PayforResponse>`;
}

export function historyReportXml(entries: Array<Record<string, string>>): string {
  const body = entries.map((e) => `<PaymentRequestExtended>\r\n<PaymentRequest xmlns="http://ocean.smartway.com/">\r\n${elements(e)}\r\n</PaymentRequest>\r\n</PaymentRequestExtended>`).join('\r\n');
  return `<?xml version="1.0" encoding="utf-8"?>\r\n<TxnHistoryReport xsi:noNamespaceSchemaLocation="TxnHistoryReport.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\r\n${body}\r\n</TxnHistoryReport>`;
}
