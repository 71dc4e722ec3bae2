// Reading GVPSRequest documents: every value as the text sent (no number parsing: '00', '949', '0100').
import { XMLParser } from 'fast-xml-parser';

const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, processEntities: true });

export type Node = Record<string, unknown>;

/** A child element as text ('' when absent or empty). */
export function text(node: unknown, ...path: string[]): string {
  let current: unknown = node;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return '';
    current = (current as Node)[key];
  }
  return typeof current === 'string' || typeof current === 'number' ? String(current) : '';
}

/** The GVPSRequest element; GVP takes the document raw or form-encoded in a `data` field. Null when it is not one. */
export function parseRequest(raw: string): Node | null {
  const body = raw.trimStart().startsWith('<') ? raw : (new URLSearchParams(raw).get('data') ?? '');
  try {
    const doc = parser.parse(body) as Node;
    const root = doc.GVPSRequest;
    return root !== null && typeof root === 'object' ? (root as Node) : null;
  } catch {
    return null;
  }
}
