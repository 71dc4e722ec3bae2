// PayFlex's wire (mewebstudio/pos src/Serializer/PayFlexV4PosSerializer.php): the VPOS takes a
// <VposRequest> (flat) and the search a <SearchRequest> (two nested groups), each posted as the
// form field `prmstr`; the MPI's enrollment takes plain form fields. The answers are XML: a flat
// <VposResponse>, the enrollment's <IPaySecure> (its VERes nested under Message) and the search's
// answer (ResponseInfo, then TransactionSearchResultInfo items). Every value stays text: amounts
// are PayFlex's decimals, codes keep their zeros ("0000").
import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/** A request document's fields in PayFlex's order; the search nests one level. */
export type PayflexFields = Readonly<Record<string, string | Readonly<Record<string, string>>>>;

/** An answer's elements: text, or nested elements (a repeated element is a list). */
export interface XmlNode {
  [name: string]: string | XmlNode | XmlNode[] | string[];
}

const builder = new XMLBuilder({ format: false, suppressEmptyNode: false, processEntities: true });
const parser = new XMLParser({
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreAttributes: true,
  trimValues: true,
  processEntities: true,
  // PayFlex's answers never declare entities; refusing them keeps a hostile body from expanding.
  htmlEntities: false,
});

/** A VPOS request, byte for byte as mewebstudio's serialiser writes it (no declaration, no line end). */
export function vposRequestXml(request: PayflexFields): string {
  return builder.build({ VposRequest: request }) as string;
}

/** A search request, byte for byte as mewebstudio's serialiser writes it (declaration, then a line end). */
export function searchRequestXml(request: PayflexFields): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ SearchRequest: request }) as string}\n`;
}

/** How the VPOS and the search take a document: the form field `prmstr`. */
export const prmstrBody = (xml: string): string => new URLSearchParams({ prmstr: xml }).toString();

const isNode = (value: unknown): value is XmlNode => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The root element's content of an XML answer, with its name; null when the body is not one. */
export function parsePayflexXml(text: string): { root: string; node: XmlNode } | null {
  let doc: unknown;
  try {
    doc = parser.parse(text, true);
  } catch {
    return null;
  }
  if (!isNode(doc)) return null;
  const roots = Object.entries(doc).filter(([name]) => name !== '?xml');
  if (roots.length !== 1) return null;
  const [root, node] = roots[0]!;
  if (node === '') return { root, node: {} };
  return isNode(node) ? { root, node } : null;
}

/** A text child ('' when absent or not text). */
export function textOf(node: XmlNode | undefined, name: string): string {
  const value = node?.[name];
  return typeof value === 'string' ? value : '';
}

/** A nested child (undefined when absent or text). */
export function childOf(node: XmlNode | undefined, name: string): XmlNode | undefined {
  const value = node?.[name];
  return isNode(value) ? value : undefined;
}

/** A repeated child as a list (one element or several); null when one of them is not an element. */
export function listOf(node: XmlNode | undefined, name: string): XmlNode[] | null {
  const value = node?.[name];
  if (value === undefined || value === '') return [];
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.every(isNode) ? (items as XmlNode[]) : null;
}
