// npm run readme:bodies
// Writes the README's "Request bodies" section from the OpenAPI document's examples (one per
// operation, built from the domain's schemas and src/rest/openapi/fields.ts), between its two
// markers. test/rest/openapi.test.ts fails when the README is not what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { schema } from '../src/graphql/schema.ts';
import { requestExamples, TAGS } from '../src/rest/openapi/document.ts';
import { routes } from '../src/rest/routes.ts';

export const README = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
const START = '<!-- request-bodies:start: written by `npm run readme:bodies` from the OpenAPI examples -->';
const END = '<!-- request-bodies:end -->';

/** `{` then one line per top-level key, so a body reads at a glance and stays short. */
function printBody(body: unknown): string {
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n}`;
}

export function requestBodiesSection(): string {
  const examples = requestExamples(schema);
  const order: string[] = TAGS.flatMap((t) => t.operations);
  const sorted = [...examples].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  const parts = sorted.map(([operation, body]) => {
    const route = routes.get(operation)!;
    const address = operation === 'update-payment-link' ? 'update-payment-link/{token}' : operation;
    const signing = route.signing === 'timestamp' ? ' (timestamp form)' : '';
    return `\`${address}\`${signing}\n\n\`\`\`json\n${printBody(body)}\n\`\`\``;
  });
  return `${START}\n${parts.join('\n\n')}\n${END}`;
}

/** The README with its section replaced by `section`. */
export function withSection(readme: string, section: string): string {
  const start = readme.indexOf(START.slice(0, 30));
  const end = readme.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`README.md has no request-bodies markers`);
  return readme.slice(0, start) + section + readme.slice(end + END.length);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(README, withSection(readFileSync(README, 'utf8'), requestBodiesSection()));
  process.stdout.write(`wrote the request bodies of ${README}\n`);
}
