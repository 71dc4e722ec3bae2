// Emulators (and shell lines that start one) as a developer runs them: child processes, each in a
// process group of its own so that stopping it stops tsx's node child too, with their output
// collected. `useProcessGroups()` kills whatever a test left running, even after a failure.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { ROOT, killGroup } from './gateway-process.ts';

export interface RunningGroup {
  /** stdout and stderr as they came. */
  output(): string;
  /** The exit code once stdout and stderr are drained (null after a signal). */
  exit: Promise<number | null>;
  /** The process started (the group's leader). */
  pid: number;
  /** The value printed on the line `  <label>: <value>`. */
  printed(label: string): string | undefined;
  /** SIGTERM to the whole group (an emulator's: to the emulator, signalChildren); resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface ProcessGroups {
  /** `npm run emulator -- <args>` as it runs it (tsx scripts/emulator.ts), started once it has printed all it accepts, or exited. */
  emulator(args: string[], env?: Record<string, string>): Promise<RunningGroup>;
  /** Any command in a group of its own, from the repository's root. */
  start(command: string, args: string[], env?: Record<string, string>): RunningGroup;
}

const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
// Each emulator's last line on start.
const STARTED = 'controls:';

export function useProcessGroups(): ProcessGroups {
  const groups: number[] = [];
  afterEach(() => {
    for (const pgid of groups.splice(0)) killGroup(pgid);
  });
  const start = (command: string, args: string[], env: Record<string, string> = {}): RunningGroup => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    groups.push(child.pid!);
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    return {
      pid: child.pid!,
      output: () => text,
      exit,
      printed: (label) => new RegExp(`^  ${label}: +(.+)$`, 'm').exec(text)?.[1],
      stop: () => {
        if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
        return exit;
      },
    };
  };
  return {
    start,
    async emulator(args, env) {
      const run = start(TSX, ['scripts/emulator.ts', ...args], env);
      await waitForOutput(run, STARTED);
      const tsx = run.pid;
      return { ...run, stop: () => (signalChildren(tsx, 'SIGTERM'), run.exit) };
    },
  };
}

/**
 * SIGTERM for the emulator itself, tsx's child, as Ctrl-C gives it to every process of the
 * terminal's group. Not to tsx: given the signal, tsx waits 30 ms for its child to say that it got
 * it too, sends it on, waits 30 ms more and then kills the child and exits 143, which a loaded
 * machine (a full test run) reaches before the child has answered. The child's exit code is still
 * tsx's. Without a child (it has ended) there is nothing to signal.
 */
function signalChildren(parent: number, signal: NodeJS.Signals): void {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || parentOf(Number(entry)) !== parent) continue;
    try {
      process.kill(Number(entry), signal);
    } catch {
      // ended meanwhile
    }
  }
}

/** A process's parent from /proc (null once it has ended). */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Resolves once `needle` is in the output or the process has exited; rejects after `timeoutMs`. */
export async function waitForOutput(run: RunningGroup, needle: string, timeoutMs = 60_000): Promise<void> {
  let exited = false;
  void run.exit.then(() => (exited = true));
  const deadline = Date.now() + timeoutMs;
  while (!run.output().includes(needle) && !exited) {
    if (Date.now() > deadline) throw new Error(`no "${needle}" within ${timeoutMs} ms:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
