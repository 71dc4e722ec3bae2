// The merchant client package (packages/client), built with its own tsconfig into a temporary
// folder and imported from there as a merchant would, driving a real gateway: a payment, a
// retrieve in the timestamp form, a decline's error_code, a 422 as a typed error with its field
// paths, a tampered answer refused, a link operation (timestamp form only), and a webhook from
// the gateway verified; and the README's steps and TypeScript example, run as written from a new folder. Its generated types
// must be what the gateway's OpenAPI document gives.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from './helpers/fixture.ts';
import { CARDS } from './helpers/payments.ts';
import { deliveryRounds } from './helpers/webhooks.ts';
import { addWebhookAddress } from '../src/domain/webhooks/addresses.ts';
import { GENERATED_FILE, generateClientTypes } from '../packages/client/scripts/generate.ts';
import type * as ClientPackage from '../packages/client/src/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE = path.join(ROOT, 'packages/client');
const HOOK_PATH = '/hooks/gateway';

const { t, merchant: m, receiver: shop } = useGateway({ merchant: true, receiver: true });
let pkg: typeof ClientPackage;
let out: string;
let reference = 100;

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'gateway-client-build-'));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(PACKAGE, 'tsconfig.json'), '--outDir', out], { stdio: 'pipe' });
  pkg = (await import(pathToFileURL(path.join(out, 'index.js')).href)) as typeof ClientPackage;
}, 180_000);
afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const client = (over: Partial<ClientPackage.GatewayClientOptions> = {}) =>
  pkg.createGatewayClient({ baseUrl: t.gateway.baseUrl, team: m.team, apiKey: m.apiKey, apiSecret: m.apiSecret, now: () => t.clock.now(), ...over });

function payment(number: string = CARDS.approved): ClientPackage.RequestBody<'regular-payment'> {
  return {
    transaction: { channel_token: m.channelToken, channel_reference: `CLIENT-${reference++}`, amount: '100.00', currency: 'TRY', installment_number: 1, ip: '203.0.113.7' },
    customer: { channel_reference: 'CUST-CLIENT', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com' },
    card: { holder_name: 'AYSE YILMAZ', number, security_code: '123', expiry_month: '12', expiry_year: '2030' },
  };
}

describe('the package', () => {
  it('carries types generated from the gateway OpenAPI document (npm run client:generate)', async () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(await generateClientTypes());
  });

  it('builds to JavaScript and declarations that import nothing but node built-ins', () => {
    const manifest = JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    const files = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(files).toContain('index.js');
    expect(readdirSync(out, { recursive: true, encoding: 'utf8' })).toContain('index.d.ts');
    for (const file of files) {
      const specifiers = [...readFileSync(path.join(out, file), 'utf8').matchAll(/(?:import|export)[^'"]*from\s*['"]([^'"]+)['"]/g)].map((x) => x[1]!);
      for (const s of specifiers) expect(s.startsWith('node:') || s.startsWith('./') || s.startsWith('../'), `${file} imports ${s}`).toBe(true);
    }
  });
});

describe('a gateway driven with the client', () => {
  it('takes a payment, retrieves it in the timestamp form, and checks both answers signatures', async () => {
    const gateway = client();

    const paid = await gateway.regularPayment(payment(), { idempotencyKey: pkg.newIdempotencyKey() });

    expect(paid.result).toEqual({ successful: true, message: null });
    const token = paid.transaction!.token!;
    const again = await gateway.retrievePayment({ transaction: { token } }, { signing: 'timestamp' });
    expect(again.result).toEqual({ successful: true, message: null });
    expect(again.transaction).toEqual(paid.transaction);
    const viaCall = await gateway.call('retrieve-payment', { transaction: { token } });
    expect(viaCall.transaction?.token).toBe(token);
  });

  it('returns a decline as an answer with its error_code, not as an error', async () => {
    const declined = await client({ language: 'en' }).regularPayment(payment(CARDS.insufficientFunds));

    expect(declined.result).toEqual({ successful: false, message: 'Insufficient funds', error_code: 'insufficient_funds' });
  });

  it('throws a ValidationError carrying the field paths of a 422', async () => {
    const body = payment();
    body.transaction.amount = '12.345';
    body.card!.expiry_month = '13';

    const err = await client()
      .regularPayment(body)
      .then(() => null, (e: unknown) => e);

    expect(err).toBeInstanceOf(pkg.ValidationError);
    expect(err).toBeInstanceOf(pkg.GatewayError);
    const v = err as ClientPackage.ValidationError;
    expect(v.status).toBe(422);
    expect(v.kind).toBe('validation');
    expect(v.paths).toEqual(expect.arrayContaining(['transaction.amount', 'card.expiry_month']));
    expect(v.fields['transaction.amount']).toEqual([v.message]);
  });

  it('throws an AuthenticationError for a wrong secret, and a ResponseSignatureError for a tampered answer', async () => {
    await expect(client({ apiSecret: 'sk_not_the_secret' }).retrieveBin({ card: { bin: '41111111' }, transaction: { amount: '100.00' } })).rejects.toBeInstanceOf(pkg.AuthenticationError);

    const tampering: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const text = (await res.text()).replace('"successful":true', '"successful":false');
      return new Response(text, { status: res.status, headers: res.headers });
    };
    await expect(client({ fetch: tampering }).retrieveBin({ card: { bin: '41111111' }, transaction: { amount: '100.00' } })).rejects.toBeInstanceOf(pkg.ResponseSignatureError);
  });

  it('signs payment link operations in the timestamp form and puts update-payment-link token in the path', async () => {
    const gateway = client();
    const created = await gateway.createPaymentLink({ payment_link: { currency: 'TRY', reference: `LNK-${reference++}`, items: [{ name: 'Ürün', unit_amount: '10.00' }] } });
    const token = created.payment_link!.token!;

    const updated = await gateway.updatePaymentLink({ payment_link: { description: 'Kampanya' } }, { token });

    expect(updated.payment_link?.token).toBe(token);
    expect(updated.payment_link?.description).toBe('Kampanya');
  });

  it('verifies a webhook the gateway sent, over its raw body, and refuses it altered or late', async () => {
    const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(t.gateway.services, ws, { url: `${shop.url}${HOOK_PATH}`, events: ['transaction.successful'] });
    const paid = await client().regularPayment(payment());

    t.clock.advance(30_000);
    const [hook] = await shop.waitFor(1);
    await deliveryRounds(t);

    const input = {
      secret: m.apiSecret,
      timestamp: hook!.headers['x-timestamp'] as string,
      signature: hook!.headers['x-signature'] as string,
      path: HOOK_PATH,
      rawBody: Buffer.from(hook!.body),
      now: t.clock.now(),
    };
    const notification = pkg.parseWebhook(input);
    expect(notification.event).toBe('transaction.successful');
    expect(notification.transaction?.token).toBe(paid.transaction!.token);
    expect(pkg.verifyWebhook({ ...input, rawBody: hook!.body.replace('successful', 'failed') })).toBe(false);
    expect(pkg.verifyWebhook({ ...input, now: new Date(t.clock.now().getTime() + 301_000) })).toBe(false);
    expect(() => pkg.parseWebhook({ ...input, path: '/' })).toThrow(pkg.WebhookVerificationError);
  });
});

describe("the README's TypeScript example", () => {
  // The README's steps for a merchant, run as written in a new, empty folder: its shell block line
  // by line (the value the reader sets, GATEWAY_DIR, is this test's gateway folder), its
  // TypeScript block saved where the shell block says, and `node` on the PATH being the machine's
  // own (here Node 20, which cannot run a .mts file by itself), not the one npm scripts put first.
  it('runs from a new project exactly as the README says', async () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('In TypeScript, use the merchant client'));
    const shell = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const SAVE = '# save the TypeScript below as example.mts, then:';
    expect(shell.split('\n').filter((l) => l.startsWith('export '))).toEqual(['export GATEWAY_DIR=/path/to/payment-gateway']);
    expect(shell).toContain(SAVE);

    const dir = mkdtempSync(path.join(tmpdir(), 'gateway-readme-'));
    try {
      // The gateway's folder as the reader has it: the checkout's packages, and the credentials
      // file the first `npm start` writes, here for this test's gateway and workspace.
      const gatewayDir = path.join(dir, 'gateway');
      mkdirSync(path.join(gatewayDir, '.data'), { recursive: true });
      symlinkSync(path.join(ROOT, 'packages'), path.join(gatewayDir, 'packages'));
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(gatewayDir, 'node_modules'));
      writeFileSync(path.join(gatewayDir, '.data/demo-credentials.json'), JSON.stringify({ base_url: t.gateway.baseUrl, team: m.team, api_key: m.apiKey, api_secret: m.apiSecret }));
      const script = shell
        .replace('export GATEWAY_DIR=/path/to/payment-gateway', `export GATEWAY_DIR=${JSON.stringify(gatewayDir)}`)
        .replace(SAVE, `cat > example.mts <<'README_TS'\n${code}README_TS\necho "node $(node --version)"`);
      // The PATH without the node_modules/.bin folders npm and vitest put first (the `node` package's Node 24).
      const machinePath = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => !dir.includes(`node_modules${path.sep}.bin`)).join(path.delimiter);
      const machineNode = execFileSync('node', ['--version'], { env: { PATH: machinePath }, encoding: 'utf8' }).trim();
      const work = path.join(dir, 'work');
      mkdirSync(work);

      const { stdout } = await promisify(execFile)('bash', ['-euc', script], {
        cwd: work,
        timeout: 120_000,
        env: { ...process.env, PATH: machinePath },
      });
      expect(stdout).toContain(`node ${machineNode}\n`);

      expect(readdirSync(work)).toEqual(['my-shop']);
      expect(stdout).toContain('Simülasyon Bank 12\ntrue\n');
      expect(stdout).toMatch(/422 \{ 'card\.bin': \[ 'The BIN must have at least 6 digits\.' \] \}/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
