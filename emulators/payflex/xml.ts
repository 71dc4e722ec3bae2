// The emulated bank's XML, written apart from the connector's (src/providers/payflex/xml.ts) so the
// two cannot share a mistake: it reads a <VposRequest> or <SearchRequest> from the form field
// `prmstr` and writes the answers (<VposResponse>, the MPI's <IPaySecure>, the search's
// <SearchResponse>) with the declaration and indentation VakıfBank's own carry.
import escapeHtml from 'escape-html';
import { XMLParser } from 'fast-xml-parser';

const parser = new XMLParser({ parseTagValue: false, ignoreAttributes: true, trimValues: true, htmlEntities: false });

/** An element's content: text, or nested elements. */
export type Tree = { [name: string]: string | Tree };

/** The document in `prmstr` under the root `root`; null when there is none. */
export function readPrmstr(raw: string, root: string): Tree | null {
  const xml = new URLSearchParams(raw).get('prmstr');
  if (xml === null) return null;
  try {
    const doc = parser.parse(xml, true) as Record<string, unknown>;
    const node = doc[root];
    if (node === '') return {};
    return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Tree) : null;
  } catch {
    return null;
  }
}

export const text = (tree: Tree | undefined, name: string): string => {
  const value = tree?.[name];
  return typeof value === 'string' ? value : '';
};

export const child = (tree: Tree | undefined, name: string): Tree | undefined => {
  const value = tree?.[name];
  return value !== undefined && typeof value === 'object' ? value : undefined;
};

/** Elements, nested as given, indented two spaces a level. */
function elements(tree: Tree, depth: number): string {
  const pad = '  '.repeat(depth);
  return Object.entries(tree)
    .map(([name, value]) => {
      if (typeof value === 'object') return `${pad}<${name}>\r\n${elements(value, depth + 1)}\r\n${pad}</${name}>`;
      return value === '' ? `${pad}<${name} />` : `${pad}<${name}>${escapeHtml(value)}</${name}>`;
    })
    .join('\r\n');
}

export function documentXml(root: string, tree: Tree): string {
  return `<?xml version="1.0" encoding="utf-8"?>\r\n<${root}>\r\n${elements(tree, 1)}\r\n</${root}>`;
}
