// The OpenAPI document served at /openapi.json: the reference a merchant reads. It passes
// `redocly lint` with the recommended rules, closes every request object (unknown keys are 422s),
// describes every request field, lists the allowed values the domain keeps, groups operations by
// resource, and shows one example body per operation that its own schema accepts; the README's
// request bodies are those examples.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { buildOpenApi, requestExamples } from '../../src/rest/openapi/document.ts';
import { routes } from '../../src/rest/routes.ts';
import { CHANNEL_EXAMPLE, TOKEN_EXAMPLE } from '../../src/rest/openapi/fields.ts';
import { README, requestBodiesSection, withSection } from '../../scripts/readme-request-bodies.ts';

type Node = Record<string, unknown>;
interface Operation {
  tags?: string[];
  requestBody: { content: { 'application/json': { schema: { $ref: string }; example?: unknown } } };
}
const doc = buildOpenApi(schema) as { paths: Record<string, { post: Operation }>; components: { schemas: Record<string, Node> }; tags: Array<{ name: string }> };
const operations = Object.entries(doc.paths).map(([address, item]) => ({ address, op: item.post, name: item.post.requestBody.content['application/json'].schema.$ref.split('/').pop()! }));
const requestSchema = (name: string) => doc.components.schemas[name]!;

/** Every object schema below `node` that has properties, with its path (not the conditions of `allOf`, which only constrain the object around them). */
function objectsOf(node: unknown, at = ''): Array<{ at: string; node: Node }> {
  if (Array.isArray(node)) return node.flatMap((n) => objectsOf(n, at));
  if (node === null || typeof node !== 'object') return [];
  const n = node as Node;
  const own = n.properties ? [{ at, node: n }] : [];
  const props = Object.entries((n.properties as Record<string, unknown> | undefined) ?? {}).flatMap(([k, v]) => objectsOf(v, `${at}.${k}`));
  const rest = Object.entries(n).filter(([k]) => k !== 'properties' && k !== 'allOf').flatMap(([, v]) => objectsOf(v, at));
  return [...own, ...props, ...rest];
}

describe('the OpenAPI document', () => {
  it('passes redocly lint with the recommended rules', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gateway-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
      const run = await promisify(execFile)(process.execPath, [cli, 'lint', '--extends=recommended', '--format=json', file], {
        cwd: dir,
        timeout: 120_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      }).catch((err: { stdout: string; stderr: string; code: number }) => err);
      const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; severity: string; message: string }> };
      expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(report.totals.errors).toBe(0);
      // The one warning left: the project states no licence for its API, and the document does not invent one.
      expect(report.problems.map((p) => p.ruleId)).toEqual(report.totals.warnings ? ['info-license'] : []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);

  it('closes every request object: additionalProperties false', () => {
    for (const { name } of operations) {
      const open = objectsOf(requestSchema(name)).filter(({ node }) => node.additionalProperties !== false);
      expect(open.map(({ at }) => `${name}${at}`)).toEqual([]);
    }
  });

  it('describes every request field', () => {
    for (const { name } of operations) {
      const bare = objectsOf(requestSchema(name)).flatMap(({ at, node }) =>
        Object.entries(node.properties as Record<string, Node>)
          .filter(([, field]) => typeof field.description !== 'string' || field.description.length < 3)
          .map(([key]) => `${name}${at}.${key}`),
      );
      expect(bare).toEqual([]);
    }
  });

  it('lists the allowed values of product.type, product.period (for a recurring product) and payment_link.amount_type', () => {
    const productSchema = (requestSchema('SaveProductRequest').properties as Record<string, Node>).product!;
    const product = productSchema.properties as Record<string, Node>;
    expect(product.type!.enum).toEqual(['simple', 'recurring']);
    expect(productSchema.allOf).toEqual([{ if: { properties: { type: { const: 'recurring' } }, required: ['type'] }, then: { properties: { period: { enum: ['monthly', 'yearly'] } }, required: ['period'] } }]);
    const link = (requestSchema('CreatePaymentLinkRequest').properties as Record<string, Node>).payment_link!.properties as Record<string, Node>;
    expect(link.amount_type!.enum).toEqual(['fixed', 'custom', 'predefined', 'predefined_and_custom', null]);
  });

  it('groups every operation under one resource tag', () => {
    const names = doc.tags.map((t) => t.name);
    expect(names).toContain('Payments');
    for (const { address, op } of operations) {
      expect(op.tags, address).toHaveLength(1);
      expect(names).toContain(op.tags![0]);
    }
    expect(operations.map(({ address }) => address.split('/')[4])).toEqual([...routes.values()].filter((r) => r.document).map((r) => r.operation));
  });

  it('shows one example body per operation, which the operation\'s schema accepts', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    for (const { address, op } of operations) {
      const media = op.requestBody.content['application/json'];
      expect(media.example, address).toBeTypeOf('object');
      const validate = ajv.compile({ $ref: `openapi${media.schema.$ref}` });
      expect(validate(media.example), `${address}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    const refund = requestExamples(schema).get('refund-payment') as { transaction: Record<string, unknown>; amount: string };
    expect(refund.transaction).not.toHaveProperty('amount');
    expect(refund.amount).toBe('10.00');
  });
});

describe("the README's request bodies", () => {
  it('are the document\'s examples, one per operation (npm run readme:bodies writes them)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withSection(readme, requestBodiesSection())).toBe(readme);
    const section = requestBodiesSection();
    for (const [operation, body] of requestExamples(schema)) {
      const address = operation === 'update-payment-link' ? 'update-payment-link/{token}' : operation;
      const block = new RegExp(`\`${address.replace(/[{}]/g, '\\$&')}\`[^\\n]*\\n\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(section)![1]!;
      // The operation's own call (the cancel example pays first), its shell variables back to the examples' placeholders.
      const call = [...block.matchAll(/^call "?([a-z-]+)[^ ]* '([\s\S]*?)'$/gm)].find((m) => m[1] === operation)!;
      const json = call[2]!.replaceAll(`"'"$CHANNEL"'"`, JSON.stringify(CHANNEL_EXAMPLE)).replace(/"'"\$[A-Z_]+"'"/g, JSON.stringify(TOKEN_EXAMPLE));
      expect(JSON.parse(json), operation).toEqual(body);
    }
  });
});
