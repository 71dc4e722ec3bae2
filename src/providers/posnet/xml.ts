// PosNet's XML (mewebstudio/pos PosNetSerializer): a <posnetRequest> document declared
// ISO-8859-9, posted as the form field `xmldata`; the answer is a <posnetResponse>. Every value
// stays text: amounts are integer minor units ("10025"), codes keep their zeros ("0051").
import { XMLBuilder, XMLParser } from 'fast-xml-parser';

export interface XmlNode {
  [name: string]: string | XmlNode;
}
export type XmlValue = string | XmlTree | XmlValue[];
export interface XmlTree {
  [name: string]: XmlValue;
}

const builder = new XMLBuilder({ format: false, suppressEmptyNode: false, processEntities: true });
const parser = new XMLParser({ parseTagValue: false, parseAttributeValue: false, ignoreAttributes: true, trimValues: true, processEntities: true, htmlEntities: false });

/** The request document, byte for byte as mewebstudio's serialiser writes it. */
export function posnetRequestXml(request: XmlNode): string {
  return `<?xml version="1.0" encoding="ISO-8859-9"?>\n${builder.build({ posnetRequest: request }) as string}\n`;
}

/** The form body PosNet's XML service reads: the document in `xmldata`. */
export function posnetBody(request: XmlNode): string {
  return new URLSearchParams({ xmldata: posnetRequestXml(request) }).toString();
}

/** The <posnetResponse> of an answer; null when the text is not one. */
export function parsePosnetResponse(text: string): XmlTree | null {
  let doc: unknown;
  try {
    doc = parser.parse(text, true);
  } catch {
    return null;
  }
  const root = (doc as { posnetResponse?: unknown } | null)?.posnetResponse;
  return root !== null && typeof root === 'object' && !Array.isArray(root) ? (root as XmlTree) : null;
}

/** The text at a path ('' for an empty element); undefined when missing or not text. */
export function textAt(tree: XmlTree, ...path: string[]): string | undefined {
  let node: XmlValue | undefined = tree;
  for (const name of path) {
    if (node === undefined || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = node[name];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The elements at a path as a list (one element is a list of one). */
export function listAt(tree: XmlTree, ...path: string[]): XmlTree[] {
  let node: XmlValue | undefined = tree;
  for (const name of path) {
    if (node === undefined || typeof node !== 'object' || Array.isArray(node)) return [];
    node = node[name];
  }
  const items = Array.isArray(node) ? node : node === undefined ? [] : [node];
  return items.filter((item): item is XmlTree => typeof item === 'object' && !Array.isArray(item));
}
