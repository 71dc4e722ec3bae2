// npm run readme:bodies
// Writes the README's "Request bodies" section from the OpenAPI document's examples (one per
// operation, built from the domain's schemas and src/rest/openapi/fields.ts), between its two
// markers, as shell lines a reader pastes after the README's `call` helper: the examples'
// placeholder tokens become the demo channel's token and the tokens earlier answers gave, so every
// line runs as written against the demo workspace. test/rest/openapi.test.ts fails when the README
// is not what this writes; test/readme-commands.test.ts runs the lines.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { schema } from '../src/graphql/schema.ts';
import { requestExamples, TAGS } from '../src/rest/openapi/document.ts';
import { CHANNEL_EXAMPLE, TOKEN_EXAMPLE } from '../src/rest/openapi/fields.ts';
import { routes } from '../src/rest/routes.ts';

export const README = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
const START = '<!-- request-bodies:start: written by `npm run readme:bodies` from the OpenAPI examples -->';
const END = '<!-- request-bodies:end -->';

/** The shell variable holding the token an operation's example names, set by an earlier answer. */
const TOKEN_VARIABLE: Record<string, string> = {
  'retrieve-payment': 'PAYMENT', 'refund-payment': 'PAYMENT', 'cancel-payment': 'PAYMENT',
  'default-saved-card': 'SAVED_CARD', 'delete-saved-card': 'SAVED_CARD',
  'retrieve-subscription': 'SUBSCRIPTION', 'cancel-subscription': 'SUBSCRIPTION',
  'update-payment-link': 'LINK', 'retrieve-payment-links': 'LINK', 'retrieve-link-payments': 'LINK',
};

/** The lines after an operation's call that keep the token its answer gave, for the operations after it. */
const KEEPS: Record<string, string> = {
  'regular-payment': 'PAYMENT=$(answer transaction.token)',
  'save-card': 'SAVED_CARD=$(answer saved_card.token)',
  'subscription-payment': 'SUBSCRIPTION=$(answer subscription.token)',
  'create-payment-link': 'LINK=$(answer payment_link.token)',
};

/** `{` then one line per top-level key, so a body reads at a glance and stays short. */
function printBody(body: unknown): string {
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n}`;
}

/** A single-quoted shell word of the body, its placeholder tokens replaced by shell variables. */
function shellBody(operation: string, body: unknown): string {
  const variable = TOKEN_VARIABLE[operation];
  let text = printBody(body).replaceAll(JSON.stringify(CHANNEL_EXAMPLE), `"'"$CHANNEL"'"`);
  if (variable) text = text.replaceAll(JSON.stringify(TOKEN_EXAMPLE), `"'"$${variable}"'"`);
  if (text.includes(TOKEN_EXAMPLE) || text.includes(CHANNEL_EXAMPLE)) throw new Error(`readme: ${operation}'s example keeps a placeholder token`);
  return `'${text}'`;
}

/** A subscription's items are recurring products: the save-product block saves one as well. */
function recurringProduct(saveProduct: unknown): unknown {
  const { product } = saveProduct as { product: Record<string, unknown> };
  return { product: { ...product, channel_reference: 'PLAN-BASIC', name: 'Basic plan', type: 'recurring', period: 'monthly' } };
}

export function requestBodiesSection(): string {
  const examples = requestExamples(schema);
  const order: string[] = TAGS.flatMap((t) => t.operations);
  const sorted = [...examples].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  const parts = sorted.map(([operation, body]) => {
    const route = routes.get(operation)!;
    const address = operation === 'update-payment-link' ? 'update-payment-link/{token}' : operation;
    const signing = route.signing === 'timestamp' ? ' (timestamp form)' : '';
    const target = operation === 'update-payment-link' ? `"update-payment-link/$LINK"` : operation;
    const lines = [`call ${target} ${shellBody(operation, body)}`];
    // A partly refunded payment cannot be cancelled: the cancel example takes a payment of its own.
    if (operation === 'cancel-payment') lines.unshift(`call regular-payment ${shellBody('regular-payment', examples.get('regular-payment'))}`, `PAYMENT=$(answer transaction.token)`);
    if (operation === 'save-product') lines.push(`call save-product ${shellBody(operation, recurringProduct(body))}`);
    if (KEEPS[operation]) lines.push(KEEPS[operation]);
    return `\`${address}\`${signing}\n\n\`\`\`sh\n${lines.join('\n')}\n\`\`\``;
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
