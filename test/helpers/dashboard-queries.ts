// The GraphQL operations the dashboard sends, read from its sources: every graphql(`…`) document,
// an operation with the fragment definitions it spreads (`...Name`, from any dashboard file, and
// the fragments those spread) appended, as gql.tada sends it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './gateway-process.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

const spreads = (document: string) => [...document.matchAll(/\.\.\.(\w+)/g)].map((m) => m[1]!);

export function dashboardOperations(): Array<{ file: string; document: string }> {
  const files = sourceFiles(path.join(ROOT, 'dashboard/src')).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const documents = files.flatMap(({ file, text }) => [...text.matchAll(/graphql\(`([^`]*)`/g)].map((m) => ({ file, document: m[1]!.trim() })));
  const fragments = new Map(documents.flatMap(({ document }) => {
    const name = /^fragment (\w+)/.exec(document)?.[1];
    return name ? [[name, document] as const] : [];
  }));
  return documents.filter(({ document }) => !document.startsWith('fragment ')).map(({ file, document }) => {
    const used = new Set<string>();
    const visit = (text: string) => {
      for (const name of spreads(text)) {
        if (used.has(name)) continue;
        const fragment = fragments.get(name);
        if (fragment === undefined) throw new Error(`${file}: unknown fragment ${name}`);
        used.add(name);
        visit(fragment);
      }
    };
    visit(document);
    return { file: path.relative(ROOT, file), document: [document, ...[...used].map((n) => fragments.get(n)!)].join('\n') };
  });
}
