// The admin CLI run in-process (src/cli/program.ts) on a test gateway's database, with its own
// environment and captured output: what an operator's `npm run gateway -- …` does, without a
// process start per command.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../../src/cli/program.ts';
import { TEST_MASTER_KEY, type TestGateway } from './gateway.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Cli {
  /** Runs `gateway <args>` with the gateway's DATABASE_URL and `env` on top. */
  run(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** Runs with --json and parses stdout; a non-zero exit fails the test with the CLI's message. */
  json<T>(...args: string[]): Promise<T>;
  /** Expects exit 1 with exactly one line `error: <expected…>` on stderr and nothing on stdout. */
  fails(args: string[], expected: string, env?: Record<string, string>): Promise<void>;
}

export function cliOn(t: TestGateway): Cli {
  let dataDir: string | undefined;
  const run = async (args: string[], env: Record<string, string> = {}): Promise<CliResult> => {
    // A DATA_DIR of its own: the CLI must not find (or create) anything under the checkout's .data.
    dataDir ??= mkdtempSync(path.join(tmpdir(), 'gateway-cli-'));
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      env: { DATABASE_URL: t.databaseUrl, GATEWAY_MASTER_KEY: TEST_MASTER_KEY, DATA_DIR: dataDir, ...env },
    });
    return { code, stdout, stderr };
  };
  return {
    run,
    async json<T>(...args: string[]) {
      const res = await run(['--json', ...args]);
      if (res.code !== 0) throw new Error(`gateway ${args.join(' ')} exited ${res.code}: ${res.stderr}`);
      return JSON.parse(res.stdout) as T;
    },
    async fails(args, expected, env = {}) {
      const res = await run(args, env);
      expect(res.code).toBe(1);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr.startsWith(`error: ${expected}`), res.stderr).toBe(true);
      expect(res.stdout).toBe('');
    },
  };
}
