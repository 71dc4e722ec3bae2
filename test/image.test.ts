// The Docker image without Docker: scripts/image-check.ts reproduces the Dockerfile's two stages
// in temporary folders (the same scripts/image/*.sh, the same COPY lines minus .dockerignore),
// then the runtime stage's CMD runs on Node 24 against a real PostgreSQL with NODE_ENV=production,
// as compose.yaml runs it. It must serve everything `npm start` serves, and hold no build tools.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_POSTGRES_MISSING } from '../src/db/embedded.ts';
import { nodeMajorOf, reproduceImage, sizeOf, type BuiltStage } from '../scripts/image-check.ts';
import { call } from './helpers/client.ts';
import { createEmptyDatabase } from './helpers/db.ts';
import { ROOT, waitForOutput, type GatewayProcess } from './helpers/gateway-process.ts';
import { freePort } from './helpers/ports.ts';

const work = mkdtempSync(path.join(tmpdir(), 'gateway-image-'));
const children: GatewayProcess[] = [];
let image: BuiltStage;
let app: string;
let gateway: { baseUrl: string; env: NodeJS.ProcessEnv; process: GatewayProcess };

/** What a RUN or the container gets from the machine: no settings of this test run (NODE_ENV=test, npm_*, DATABASE_URL...). */
function machineEnv(): Record<string, string> {
  const keep = /^(HOME|USER|LANG|LC_ALL|TMPDIR|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|https?_proxy|no_proxy|HTTPS?_PROXY|NO_PROXY)$/;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (keep.test(name) && value !== undefined) env[name] = value;
  // Node 24 (this test's node, the `node` package's) first, as the node:24 base image has it.
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
  return env;
}

function startImage(env: NodeJS.ProcessEnv): GatewayProcess {
  const [command, ...args] = image.cmd!;
  expect(command).toBe('node');
  const child = spawn(process.execPath, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const running = { child, output: () => text, exited };
  children.push(running);
  return running;
}

beforeAll(async () => {
  const npmCache = process.env.npm_config_cache ?? (await promisify(execFile)('npm', ['config', 'get', 'cache'])).stdout.trim();
  const stages = await reproduceImage({ context: ROOT, work, env: { ...machineEnv(), npm_config_cache: npmCache } });
  image = stages.at(-1)!;
  app = image.hostPath('.');

  const port = await freePort();
  const env = {
    ...machineEnv(),
    ...image.env,
    // Folders of the image are folders of this machine here; and this test listens on 127.0.0.1 only.
    DATA_DIR: image.hostPath(image.env.DATA_DIR!),
    HOST: '127.0.0.1',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: await createEmptyDatabase(),
    GATEWAY_MASTER_KEY: randomBytes(32).toString('hex'),
    // A production start makes no demo workspace unless asked; this test asks, to call the API with it.
    SEED_DEMO: 'true',
  };
  const started = startImage(env);
  await waitForOutput(started, '"gateway listening"', 90_000);
  gateway = { baseUrl: env.BASE_URL, env, process: started };
}, 900_000);

afterAll(async () => {
  for (const r of children) r.child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

const get = (pathname: string, headers: Record<string, string> = {}) => fetch(`${gateway.baseUrl}${pathname}`, { headers });

describe('the image built from the Dockerfile', () => {
  it('is built on the Node major version of its base image, the one this test runs', () => {
    expect(image.from).toMatch(/^node:24-/);
    expect(Number(process.versions.node.split('.')[0])).toBe(nodeMajorOf(image.from));
    expect(image.user).toBe('node');
  });

  it('holds the production dependencies only: no build tool, no embedded PostgreSQL', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
    const installed = (name: string) => existsSync(path.join(app, 'node_modules', name, 'package.json'));
    for (const name of Object.keys(pkg.dependencies!)) expect(installed(name), name).toBe(true);
    // A dev dependency that a production package depends on too (e.g. @prisma/driver-adapter-utils) stays.
    const devOnly = Object.keys(pkg.devDependencies!).filter((name) => {
      const entry = lock.packages[`node_modules/${name}`]!;
      return entry.dev || entry.devOptional;
    });
    expect(devOnly).toEqual(expect.arrayContaining(['typescript', 'tsx', 'vite', 'prisma', 'react', 'vitest']));
    for (const name of [...devOnly, ...Object.keys(pkg.optionalDependencies!)]) expect(installed(name), name).toBe(false);
    // Brought by nothing that runs: the prisma CLI's own dependencies and vite's bundler.
    for (const name of ['@prisma/studio-core', '@prisma/dev', 'rolldown', 'esbuild']) expect(installed(name), name).toBe(false);
    expect(existsSync(path.join(app, 'dashboard/dist/index.html'))).toBe(true);
    expect(readdirSync(path.join(app, 'prisma/migrations')).filter((n) => /^\d{4}_/.test(n)).length).toBeGreaterThan(10);
  });

  it('has installed every package that dist/ imports, statically or by import(), but the optional ones', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const missing: string[] = [];
    for (const file of readdirSync(path.join(app, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(path.join(app, 'dist', file), 'utf8');
      for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
        if (fileName.startsWith('.') || fileName.startsWith('node:')) continue;
        const name = fileName.split('/').slice(0, fileName.startsWith('@') ? 2 : 1).join('/');
        if (!existsSync(path.join(app, 'node_modules', name, 'package.json')) && !(name in pkg.optionalDependencies!)) missing.push(`${name} (dist/${file})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('answers /healthz once started, after applying every migration to an empty database', async () => {
    const res = await get('/healthz');
    expect(res.status).toBe(200);
  });

  it('serves the dashboard and its script', async () => {
    const page = await get('/dashboard/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const script = /<script type="module"[^>]* src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeTruthy();
    const js = await get(script!);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await js.text()).length).toBeGreaterThan(10_000);
  });

  it('serves the API reference and the OpenAPI document', async () => {
    const docs = await get('/docs');
    expect(docs.status).toBe(200);
    // Swagger's files live under their version, so an upgrade changes their address.
    const bundlePath = /src="(\/docs\/[^"]+\/swagger-ui-bundle\.js)"/.exec(await docs.text())?.[1];
    expect(bundlePath).toBeDefined();
    const bundle = await get(bundlePath!);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const openapi = await get('/openapi.json');
    expect(openapi.status).toBe(200);
    const doc = (await openapi.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
  });

  it('serves GraphiQL and answers GraphQL with a token from its own CLI', async () => {
    const created = await promisify(execFile)(process.execPath, ['dist/cli.js', '--json', 'token', 'create', '--support'], { cwd: app, env: gateway.env });
    const token = (JSON.parse(created.stdout) as { token: string }).token;
    // Anonymous first; a gateway that keeps GraphiQL for token holders gets the token.
    let page = await get('/graphql', { Accept: 'text/html' });
    if (page.status === 401 || page.status === 403) page = await get('/graphql', { Accept: 'text/html', Authorization: `Bearer ${token}` });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('GraphiQL');

    const res = await fetch(`${gateway.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ workspaces { slug } }' }),
    });
    expect(await res.json()).toEqual({ data: { workspaces: [{ slug: 'demo' }] } });
  });

  it('answers a signed REST call with the demo credentials it wrote to DATA_DIR', async () => {
    const demo = JSON.parse(readFileSync(path.join(gateway.env.DATA_DIR!, 'demo-credentials.json'), 'utf8')) as Record<string, string>;
    const res = await call(gateway.baseUrl, { team: 'demo', apiKey: demo.api_key!, apiSecret: demo.api_secret! }, 'retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '100.00', currency: 'TRY' } });
    expect(res.status).toBe(200);
  });

  it('answers an unknown checkout page with its 404 page', async () => {
    const res = await get('/checkout/order/00000000-0000-4000-8000-000000000000', { 'Accept-Language': 'en' });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('<h1>Not found</h1><p class="error">This payment page is not valid.</p>');
  });

  it('serves /metrics', async () => {
    const res = await get('/metrics');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('gateway_http_requests_total');
  });

  it('runs its jobs', async () => {
    const client = new pg.Client({ connectionString: gateway.env.DATABASE_URL });
    await client.connect();
    try {
      const deadline = Date.now() + 20_000;
      let ran = false;
      while (!ran && Date.now() < deadline) {
        const { rows } = await client.query(`SELECT 1 FROM agenda.agenda_jobs WHERE name = 'deliver-webhooks' AND last_finished_at IS NOT NULL`);
        ran = rows.length > 0;
        if (!ran) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(ran).toBe(true);
    } finally {
      await client.end();
    }
  });

  it('refuses to start without DATABASE_URL, in one line, since a production start has no embedded PostgreSQL', async () => {
    const env: NodeJS.ProcessEnv = { ...gateway.env, PORT: String(await freePort()), DATA_DIR: path.join(work, 'no-database') };
    delete env.DATABASE_URL;
    const r = startImage(env);
    expect(await r.exited).toEqual({ code: 1, signal: null });
    expect(r.output()).toMatch(/^The gateway could not start: Invalid configuration: DATABASE_URL: required with NODE_ENV=production [^\n]+\n$/);
  });

  it('without NODE_ENV=production either, it says the embedded PostgreSQL is not installed', async () => {
    const env: NodeJS.ProcessEnv = { ...gateway.env, NODE_ENV: 'development', PORT: String(await freePort()), DATA_DIR: path.join(work, 'no-database-dev') };
    delete env.DATABASE_URL;
    const r = startImage(env);
    expect(await r.exited).toEqual({ code: 1, signal: null });
    expect(r.output()).toContain(`The gateway could not start: ${EMBEDDED_POSTGRES_MISSING}\n`);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    gateway.process.child.kill('SIGTERM');
    expect(await gateway.process.exited).toEqual({ code: 0, signal: null });
  });

  it('has its sizes measured (test-artifacts/image-sizes.json)', () => {
    const sizes = {
      node_modules: sizeOf(path.join(app, 'node_modules')),
      dist: sizeOf(path.join(app, 'dist')),
      dashboard_dist: sizeOf(path.join(app, 'dashboard/dist')),
      app_total: sizeOf(app),
    };
    mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
    writeFileSync(path.join(ROOT, 'test-artifacts/image-sizes.json'), JSON.stringify(sizes, null, 2) + '\n');
    console.log(`image app layers (MB): ${Object.entries(sizes).map(([k, v]) => `${k} ${(v.bytes / 1e6).toFixed(1)}`).join(', ')}`);
    // A build tool slipping back into "dependencies" shows here first.
    expect(sizes.node_modules.bytes).toBeLessThan(250e6);
  });
});
