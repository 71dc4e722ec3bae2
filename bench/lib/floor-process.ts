// The floor server (bench/floor-server.ts) in its own process, on the gateway's database, with
// the gateway's demo credentials, so the same load and checks run against it unchanged.
import { spawn, type ChildProcess } from 'node:child_process';
import { benchNodeFlags, REPO_ROOT, type DemoCredentials } from './gateway-process.ts';
import { sleep } from './stats.ts';
import { stopChild } from './child.ts';

const START_TIMEOUT_MS = 30_000;

export class FloorProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
    private readonly postgres: () => number | null,
  ) {}

  static async start(opts: { port: number; databaseUrl: string; demo: DemoCredentials; postgresPid: () => number | null }): Promise<FloorProcess> {
    const env = { ...process.env, FLOOR_PORT: String(opts.port), FLOOR_DATABASE_URL: opts.databaseUrl, FLOOR_DEMO: JSON.stringify(opts.demo) };
    const child = spawn(process.execPath, [...benchNodeFlags(), '--import', 'tsx', 'bench/floor-server.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const listening = new Promise<boolean>((resolve) => {
      child.stdout!.on('data', (c: Buffer) => {
        output += c.toString('utf8');
        if (output.includes('listening')) resolve(true);
      });
      child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
      child.once('exit', () => resolve(false));
    });
    const started = await Promise.race([listening, sleep(START_TIMEOUT_MS).then(() => false)]);
    if (!started) {
      child.kill('SIGKILL');
      throw new Error(`the floor server did not start:\n${output}`);
    }
    return new FloorProcess(child, `http://127.0.0.1:${opts.port}`, opts.postgresPid);
  }

  get pid(): number {
    return this.child.pid!;
  }

  postgresPid(): number | null {
    return this.postgres();
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }
}
