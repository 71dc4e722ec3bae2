// One-line JSON logs. Card data never reaches a log: callers log ids and codes, never inputs.
export type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: Level = 'info', write: (line: string) => void = (l) => process.stdout.write(l + '\n')): Logger {
  const log = (at: Exclude<Level, 'silent'>) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (order[at] < order[level]) return;
    write(scrubCardNumbers(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields })));
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** Defence in depth: any run of 12-19 digits (a possible card number) is masked before writing. */
export function scrubCardNumbers(line: string): string {
  return line.replace(/(?<!\d)(\d{6})\d{2,9}(\d{4})(?!\d)/g, '$1******$2');
}
