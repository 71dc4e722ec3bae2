// The GraphQL operations the dashboard sends, read from its sources: every gql`…` template, with
// `${NAME}` filled from a `const NAME = \`…\`` or `'…'` of the dashboard's sources (fragments of
// fields a file shares with another; the only interpolation used).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './gateway-process.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(e.name) ? [full] : [];
  });
}

export function dashboardOperations(): Array<{ file: string; document: string }> {
  const found: Array<{ file: string; document: string }> = [];
  const files = sourceFiles(path.join(ROOT, 'dashboard/src')).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const consts = new Map(files.flatMap(({ text }) => [...text.matchAll(/const (\w+) = (?:`([^`]*)`|'([^']*)')/g)].map((m) => [m[1]!, m[2] ?? m[3]!] as const)));
  for (const { file, text } of files) {
    for (const m of text.matchAll(/gql`([^`]*)`/g)) {
      const document = m[1]!.replace(/\$\{(\w+)\}/g, (_all, name: string) => {
        const value = consts.get(name);
        if (value === undefined) throw new Error(`${file}: unknown interpolation ${name}`);
        return value;
      });
      found.push({ file: path.relative(ROOT, file), document });
    }
  }
  return found;
}
