import { XMLBuilder, XMLParser } from 'fast-xml-parser';

export type XmlFields = Record<string, unknown>;

const parser = new XMLParser({ parseTagValue: false, ignoreDeclaration: true, ignoreAttributes: true, trimValues: true });
const builder = new XMLBuilder({ format: false, suppressEmptyNode: false });

/**
 * The CC5Request of an API call. EST takes the XML either raw in the body or urlencoded as
 * `DATA=<?xml…>`; null when neither holds a CC5Request element.
 */
export function parseRequest(body: string): XmlFields | null {
  let xml = body.trim();
  if (xml.startsWith('DATA=')) xml = new URLSearchParams(xml).get('DATA') ?? '';
  if (!xml.trimStart().startsWith('<')) return null;
  try {
    const root = parser.parse(xml) as XmlFields;
    const request = root.CC5Request;
    if (request === '') return {};
    return request && typeof request === 'object' && !Array.isArray(request) ? (request as XmlFields) : null;
  } catch {
    return null;
  }
}

/** A text element of the request ('' for an empty one, undefined when absent or not text). */
export function text(fields: XmlFields, name: string): string | undefined {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
}

export function extra(fields: XmlFields): XmlFields {
  const value = fields.Extra;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as XmlFields) : {};
}

export function buildResponse(fields: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ CC5Response: fields }) as string}`;
}
