// `npx tsx bench/cpu-ab.ts --against <tree>`: the gateway's CPU per regular payment, this tree's
// against another checkout's (a `git archive` of an older commit, with node_modules,
// src/generated and dashboard/dist in place), and the floor server's (bench/floor-server.ts).
//
// On a shared, loaded machine two `npm run bench` runs minutes apart see different loads, and a
// payment's CPU moves with the load (scheduling, caches) by more than most changes are worth.
// Here both gateways (each with its own embedded PostgreSQL, as `npm run bench` starts them) and
// the floor (on a third gateway's database) run at once, and short measured windows go to each in turn, so each comparison is
// made under the same load. The figures: CPU of the server process and of its PostgreSQL per payment (from /proc), its
// payments per second, and per round the two gateways' and the floor's ratios; medians at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FloorProcess } from './lib/floor-process.ts';
import { regularPayment } from './lib/gateway-ops.ts';
import { alive, type GatewayProcess as Gateway } from './lib/gateway-process.ts';
import { HttpClient } from './lib/http-client.ts';
import { runLoad, warmUp } from './lib/load.ts';
import { freePort } from './lib/net.ts';
import { sampleCpu } from './lib/proc-cpu.ts';
import { fmtShort, median, sleep } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    rounds: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '6' },
    'jit-warmup': { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '32' },
  },
});
if (!values.against) throw new Error('usage: npx tsx bench/cpu-ab.ts --against <other checkout> [--rounds 8] [--seconds 6] [--jit-warmup 20] [--concurrency 32]');
const rounds = Number(values.rounds);
const windowMs = Number(values.seconds) * 1000;
const concurrency = Number(values.concurrency);
const log = (line = '') => process.stdout.write(line + '\n');

interface Target {
  label: string;
  pid: () => number;
  postgresPid: () => number | null;
  http: HttpClient;
  cpu: number[];
  /** PostgreSQL's CPU per payment (its postmaster and backends). */
  pgCpu: number[];
  rate: number[];
  p99: number[];
}

const here = path.resolve(import.meta.dirname, '..');
const trees = [
  { label: 'this tree', dir: here },
  { label: 'against', dir: path.resolve(values.against) },
];
const dataDirs: string[] = [];
const gateways: Gateway[] = [];
let floor: FloorProcess | null = null;
const abort = new AbortController();

async function startGateway(dir: string): Promise<Gateway> {
  // Each tree's own bench module, so the gateway starts from that tree's sources.
  const { GatewayProcess } = (await import(path.join(dir, 'bench/lib/gateway-process.ts'))) as typeof import('./lib/gateway-process.ts');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cpu-ab-'));
  dataDirs.push(dataDir);
  const gateway = new GatewayProcess({ dataDir, port: await freePort(), pgPort: await freePort(), env: { WORKERS: '1' } });
  gateways.push(gateway);
  await gateway.start();
  return gateway;
}

const clients: HttpClient[] = [];

async function cleanup(): Promise<void> {
  abort.abort();
  // Load first: a gateway stops only once its keep-alive connections fall quiet.
  for (const c of clients) {
    await c.drain(10_000);
    c.close();
  }
  await floor?.stop().catch(() => {});
  for (const g of gateways) {
    const postgres = g.postgresPid();
    await g.stop().catch((err: Error) => log(`stopping a gateway: ${err.message}`));
    // The gateway stops its PostgreSQL on SIGTERM; make sure, without leaving a server behind.
    for (let i = 0; i < 100 && postgres !== null && alive(postgres); i++) await sleep(100);
    if (postgres !== null && alive(postgres)) process.kill(postgres, 'SIGINT');
  }
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
}
function client(baseUrl: string): HttpClient {
  const c = new HttpClient(baseUrl, concurrency);
  clients.push(c);
  return c;
}
process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));

try {
  log(`cpu-ab: ${new Date().toISOString()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const targets: Target[] = [];
  for (const tree of trees) {
    const gateway = await startGateway(tree.dir);
    targets.push({ label: `${tree.label} (${tree.dir})`, pid: () => gateway.pid, postgresPid: () => gateway.postgresPid(), http: client(gateway.baseUrl), cpu: [], pgCpu: [], rate: [], p99: [] });
  }
  // The floor writes into a database of its own: a gateway follows its database's events (webhooks,
  // live updates), and one measured with the floor's payments in its database was charged for them.
  const host = await startGateway(here);
  floor = await FloorProcess.start({ port: await freePort(), databaseUrl: host.databaseUrl(), demo: host.demoCredentials(), postgresPid: () => host.postgresPid() });
  const floorPid = floor.pid;
  targets.push({ label: 'the floor', pid: () => floorPid, postgresPid: () => host.postgresPid(), http: client(floor.baseUrl), cpu: [], pgCpu: [], rate: [], p99: [] });
  const demos = [gateways[0]!.demoCredentials(), gateways[1]!.demoCredentials(), host.demoCredentials()];
  let n = 0;
  const pay = (i: number) => () => regularPayment(targets[i]!.http, demos[i]!, n++);
  for (let i = 0; i < targets.length; i++) await warmUp([pay(i)], concurrency, Number(values['jit-warmup']) * 1000, abort.signal);
  log(`  ${rounds} rounds of ${windowMs / 1000} s windows, ${concurrency} clients, the order turning each round`);
  for (let r = 0; r < rounds; r++) {
    const order = targets.map((_, i) => (i + r) % targets.length);
    const line: string[] = [];
    for (const i of order) {
      const t = targets[i]!;
      let before = { gatewayMs: 0, postgresMs: 0 };
      let used = { gatewayMs: 0, postgresMs: 0 };
      const load = await runLoad(pay(i), {
        concurrency,
        warmupMs: 1_000,
        durationMs: windowMs,
        signal: abort.signal,
        around: {
          before: async () => void (before = sampleCpu(t.pid(), t.postgresPid())),
          after: async () => {
            const now = sampleCpu(t.pid(), t.postgresPid());
            used = { gatewayMs: now.gatewayMs - before.gatewayMs, postgresMs: now.postgresMs - before.postgresMs };
          },
        },
      });
      if (load.errors) throw new Error(`${t.label}: ${load.errors} errors, first: ${load.firstError}`);
      t.cpu.push(used.gatewayMs / load.ok);
      t.pgCpu.push(used.postgresMs / load.ok);
      t.rate.push(load.perSecond);
      t.p99.push(load.p99);
      line.push(`${t.label.split(' (')[0]} ${fmtShort(used.gatewayMs / load.ok)} ms (PostgreSQL ${fmtShort(used.postgresMs / load.ok)}), ${Math.round(load.perSecond)}/s, p99 ${fmtShort(load.p99)} ms`);
    }
    log(`  round ${r + 1}: ${line.join('; ')}; load average ${os.loadavg()[0]!.toFixed(1)}`);
  }
  const [mine, other, bare] = targets as [Target, Target, Target];
  const ratio = (a: number[], b: number[]) => median(a.map((v, i) => v / b[i]!));
  log('Medians over the rounds (server CPU ms per payment; payments/s):');
  for (const t of targets) log(`  ${t.label}: ${fmtShort(median(t.cpu))} ms (${fmtShort(Math.min(...t.cpu))}-${fmtShort(Math.max(...t.cpu))}), PostgreSQL ${fmtShort(median(t.pgCpu))} ms; ${Math.round(median(t.rate))}/s, p99 ${fmtShort(median(t.p99))} ms`);
  log(`  CPU per payment, this tree ÷ against, per round: median ${fmtShort(ratio(mine.cpu, other.cpu))}; PostgreSQL's ${fmtShort(ratio(mine.pgCpu, other.pgCpu))}`);
  log(`  payments/s × the floor, per round: this tree ${fmtShort(ratio(mine.rate, bare.rate))}, against ${fmtShort(ratio(other.rate, bare.rate))}`);
  log(`  load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await cleanup();
}
// The load's HTTP agents and the children's pipes may keep the event loop alive; all is stopped.
process.exit(0);
