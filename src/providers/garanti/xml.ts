// GVP's XML: a request is a <GVPSRequest> document, an answer a <GVPSResponse>. Both sides go
// through fast-xml-parser. Every value stays text: amounts are integer minor units written as
// digits ("10025"), codes keep their leading zeros ("05"), so nothing ever becomes a number.
import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/** A request's elements in GVP's order: a string is a leaf, an object a nested element. */
export interface XmlNode {
  [name: string]: string | XmlNode;
}

const builder = new XMLBuilder({ format: false, suppressEmptyNode: false, processEntities: true });
const parser = new XMLParser({
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreAttributes: true,
  trimValues: true,
  processEntities: true,
  // GVP's answers never declare entities; refusing them keeps a hostile body from expanding.
  htmlEntities: false,
});

/** The request document as GVP's servlet reads it (the same bytes as mewebstudio's serializer). */
export function gvpsRequestXml(request: XmlNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ GVPSRequest: request }) as string}\n`;
}

/** An element of a parsed answer: text, a nested element, or a list when it repeats. */
export type XmlValue = string | XmlTree | XmlValue[];
export interface XmlTree {
  [name: string]: XmlValue;
}

/** The <GVPSResponse> element of an answer; null when the text is not one. */
export function parseGvpsResponse(text: string): XmlTree | null {
  let doc: unknown;
  try {
    doc = parser.parse(text, true);
  } catch {
    return null;
  }
  const root = (doc as { GVPSResponse?: unknown } | null)?.GVPSResponse;
  return root !== null && typeof root === 'object' && !Array.isArray(root) ? (root as XmlTree) : null;
}

/** The text at a path of element names ('' for an empty element); undefined when missing or not text. */
export function textAt(tree: XmlTree, ...path: string[]): string | undefined {
  let node: XmlValue | undefined = tree;
  for (const name of path) {
    if (node === undefined || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = node[name];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The element at a path, as a list (an element that appears once is a list of one). */
export function listAt(tree: XmlTree, ...path: string[]): XmlTree[] {
  let node: XmlValue | undefined = tree;
  for (const name of path) {
    if (node === undefined || typeof node !== 'object' || Array.isArray(node)) return [];
    node = node[name];
  }
  const items = Array.isArray(node) ? node : node === undefined ? [] : [node];
  return items.filter((item): item is XmlTree => typeof item === 'object' && !Array.isArray(item));
}
