// What a CLI action is given to work with and where it writes (context.ts builds it): the types
// alone, so that the modules context.ts loads lazily can name them without importing it back.
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';

/** Where a command line writes, and the environment its configuration is read from. */
export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  env: Record<string, string | undefined>;
}

export interface CliOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
  hasColors?(): boolean;
}

export interface CliContext {
  db: Db;
  masterKey: Buffer;
  config: Config;
  json: boolean;
  /** `data` on stdout as JSON with --json, else the human lines. */
  print(data: unknown, lines: string[]): void;
}
