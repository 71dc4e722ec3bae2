// npm run ha -- up | down | status: the reference high-availability deployment (deploy/ha) on this
// machine, from Debian's packages: etcd, a Patroni primary and synchronous standby, HAProxy, and
// two gateways on one DATABASE_URL through HAProxy. README, "Running on several machines".
import { Command } from 'commander';
import { clusterMembers, readState, startDatabaseCluster, startGateway, stopAll, waitForGateway } from './ha/cluster.ts';

const DEFAULT_DIR = '.data/ha';
const log = (line: string) => process.stdout.write(`${line}\n`);

const program = new Command('npm run ha --').description('The reference high-availability deployment (deploy/ha) on this machine');

program
  .command('up')
  .description('starts etcd, two Patroni nodes, HAProxy and two gateways; returns once both gateways answer')
  .option('--dir <dir>', 'data, logs and PIDs', DEFAULT_DIR)
  .option('--port-shift <n>', "added to every port of deploy/ha's files", '0')
  .action(async (opts: { dir: string; portShift: string }) => {
    try {
      const state = await startDatabaseCluster({ dir: opts.dir, portShift: Number(opts.portShift), log });
      for (const index of [0, 1]) {
        const url = startGateway(state, index, { seedDemo: true });
        log(`starting gateway ${index + 1} on ${url}`);
        await waitForGateway(state, index);
      }
      log(`up: gateways ${state.gateways.join(' and ')}, DATABASE_URL ${state.databaseUrl.replace(/:[^:@/]+@/, ':***@')}`);
      log(`demo credentials: ${opts.dir}/gateway1/demo-credentials.json; logs: ${opts.dir}/logs; stop: npm run ha -- down`);
    } catch (err) {
      process.stderr.write(`up failed: ${(err as Error).message}\nstopping what was started; logs are in ${opts.dir}/logs\n`);
      await stopAll(opts.dir, log);
      process.exitCode = 1;
    }
  });

program
  .command('down')
  .description('stops every process `up` started, by PID')
  .option('--dir <dir>', 'data, logs and PIDs', DEFAULT_DIR)
  .action(async (opts: { dir: string }) => {
    await stopAll(opts.dir, log);
    log('down');
  });

program
  .command('status')
  .description("the nodes as Patroni sees them, and the gateways' health")
  .option('--dir <dir>', 'data, logs and PIDs', DEFAULT_DIR)
  .action(async (opts: { dir: string }) => {
    const state = readState(opts.dir);
    if (!state) {
      log(`nothing was started from ${opts.dir}`);
      return;
    }
    for (const m of await clusterMembers(state).catch(() => [])) log(`${m.name}: ${m.role} ${m.state} (127.0.0.1:${m.port}, lag ${m.lag ?? 0})`);
    for (const url of state.gateways) log(`${url}: ${(await fetch(`${url}/healthz`).catch(() => null))?.status ?? 'not answering'}`);
  });

await program.parseAsync();
