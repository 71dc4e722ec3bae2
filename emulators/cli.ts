// What every emulator's command (`npm run emulator -- <name>`) shares: where it listens, a bank's
// time to answer, the lines it prints on start (where it listens and what it accepts) and serving
// until Ctrl-C or SIGTERM. Each emulator has its own default port, so all three can run side by side.
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseLatency, type Latency } from './iyzico/behaviour.ts';

/** The options every emulator takes. */
export interface ListenFlags {
  port: number;
  host: string;
  latency?: Latency;
}

export function emulatorCommand(name: string, description: string, defaultPort: number): Command {
  return new Command(name)
    .description(description)
    .option('--port <n>', 'port to listen on (0: any free port)', parsePort, defaultPort)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--latency <min-max>', "a real bank's time to answer in ms, uniformly random per call (MIN-MAX, or MS for a fixed wait)", parseLatencyFlag);
}

/** A credential the emulator accepts: a flag with the emulator's test value as default (and a variable, when given, read before it). */
export function credentialOption(flags: string, description: string, defaultValue: string, env?: string): Option {
  const option = new Option(flags, description).default(defaultValue);
  return env ? option.env(env) : option;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new InvalidArgumentError('must be a port number, 0-65535.');
  return port;
}

function parseLatencyFlag(text: string): Latency {
  try {
    return parseLatency(text);
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}.`);
  }
}

/** Prints `title` and one aligned `label: value` line per row, then the lines every emulator shares. */
export function printStarted(title: string, url: string, rows: Array<[string, string]>, latency: Latency | undefined): void {
  const all: Array<[string, string]> = [
    ...rows,
    ['latency', latency ? `${latency.minMs}-${latency.maxMs} ms before every answer` : 'none (--latency MIN-MAX)'],
    ['state', `GET ${url}/_emulator/state`],
    ['controls', `POST ${url}/_emulator/behaviour {"mode":"decline|fail|timeout|slow","count":1,"delayMs":2000}`],
  ];
  const width = Math.max(...all.map(([label]) => label.length)) + 2;
  process.stdout.write([title, ...all.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`), ''].join('\n'));
}

/**
 * Ctrl-C or SIGTERM closes the emulator (open connections cut) and ends the process with 0. A
 * terminal's Ctrl-C reaches npm, tsx and the emulator, and tsx passes it on again: the repeats are
 * ignored rather than ending the process before it has closed.
 */
export function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const end = () => {
    if (stopping) return;
    stopping = true;
    void stop().then(() => process.exit(0));
  };
  process.on('SIGINT', end);
  process.on('SIGTERM', end);
}

/**
 * A bank emulator's command action: starts it with the flags, prints "<title> emulator listening
 * on <url>" with `rows` (its addresses and what it accepts), and serves until Ctrl-C or SIGTERM.
 */
export function serveEmulator<Flags extends ListenFlags, E extends { url: string; stop(): Promise<void> }>(title: string, start: (flags: Flags) => Promise<E>, rows: (emulator: E) => Array<[string, string]>): (flags: Flags) => Promise<void> {
  return async (flags) => {
    const emulator = await start(flags);
    printStarted(`${title} emulator listening on ${emulator.url}`, emulator.url, rows(emulator), flags.latency);
    stopOnSignal(() => emulator.stop());
  };
}
