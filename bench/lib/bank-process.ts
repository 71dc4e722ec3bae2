// The bank phase's iyzico emulator (bench/bank-emulator.ts) as a child process with an IPC
// channel: started with its keys and latency, asked for the latencies it applied, stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Latency } from '../../emulators/iyzico/behaviour.ts';
import { REPO_ROOT } from './gateway-process.ts';
import { sleep } from './stats.ts';
import { stopChild } from './child.ts';

const START_TIMEOUT_MS = 30_000;
const ASK_TIMEOUT_MS = 10_000;

type Message = { type: 'listening'; url: string } | { type: 'latencies'; latencies: number[] };

export class BankProcess {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(settings: { apiKey: string; secretKey: string; latency: Latency }): Promise<BankProcess> {
    const env = { ...process.env, BANK_EMULATOR: JSON.stringify({ apiKey: settings.apiKey, secretKey: settings.secretKey, ...settings.latency }) };
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bank-emulator.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const url = await Promise.race([
      new Promise<string | null>((resolve) => {
        child.on('message', (m: Message) => m.type === 'listening' && resolve(m.url));
        child.once('exit', () => resolve(null));
      }),
      sleep(START_TIMEOUT_MS).then(() => null),
    ]);
    if (!url) {
      child.kill('SIGKILL');
      throw new Error(`the bank emulator did not start:\n${output}`);
    }
    const bank = new BankProcess(child, url);
    bank.output = output;
    return bank;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** The latencies (ms) the emulator applied since the last call, in the order they ended. */
  latencies(): Promise<number[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the bank emulator did not answer:\n${this.output}`)), ASK_TIMEOUT_MS);
      const onMessage = (m: Message) => {
        if (m.type !== 'latencies') return;
        clearTimeout(timer);
        this.child.off('message', onMessage);
        resolve(m.latencies);
      };
      this.child.on('message', onMessage);
      this.child.send({ type: 'latencies' });
    });
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }
}
