// EST's XML API speaks CC5Request / CC5Response documents (mewebstudio/pos
// src/Serializer/EstPosSerializer.php: root CC5Request, declared ISO-8859-9). Every value is a
// string on the way in and stays a string on the way out: amounts are never numbers here.
import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/** A request's fields in the order they are written; Extra holds nested fields (ORDERSTATUS). */
export type CC5Fields = Record<string, string | Record<string, string>>;

/** A CC5Response as read: its top fields, Extra's fields apart. */
export interface CC5Response {
  fields: Record<string, string>;
  extra: Record<string, string>;
}

const builder = new XMLBuilder({ format: false, suppressEmptyNode: false });
const parser = new XMLParser({ parseTagValue: false, parseAttributeValue: false, ignoreAttributes: true, trimValues: true, processEntities: true, htmlEntities: true });

/** The request document, as mewebstudio's serializer writes it (one line after the declaration). */
export function buildCC5Request(fields: CC5Fields): string {
  return `<?xml version="1.0" encoding="ISO-8859-9"?>\n${builder.build({ CC5Request: fields }) as string}\n`;
}

function flat(value: unknown): Record<string, string> | null {
  if (value === '' || value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    // A repeated or nested element is not what EST sends in these places: keep its text only when it is one.
    if (typeof item === 'string') out[key] = item;
    else if (item !== null && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length === 0) out[key] = '';
  }
  return out;
}

/** Reads a CC5Response; null when the text is not one (an HTML error page, cut-off XML). */
export function parseCC5Response(text: string): CC5Response | null {
  let doc: unknown;
  try {
    doc = parser.parse(text, true);
  } catch {
    return null;
  }
  const body = doc !== null && typeof doc === 'object' ? (doc as Record<string, unknown>).CC5Response : undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { Extra: extraNode, ...top } = body as Record<string, unknown>;
  const root = flat(top);
  if (root === null) return null;
  const extra = flat(extraNode) ?? {};
  if (root.ProcReturnCode === undefined && root.Response === undefined) return null;
  return { fields: root, extra };
}
