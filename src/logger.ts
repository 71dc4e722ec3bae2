// Structured logs on pino: one JSON line per entry. Card data and secrets never reach a log:
// callers log ids and codes, pino's redaction blanks the known secret fields, and every line is
// scrubbed of anything shaped like a card number or a security code before it is written
// (defence in depth).
// Lines written while a request or job runs carry its request id (observability/context.ts).
import pino from 'pino';
import { prettyFactory } from 'pino-pretty';
import { maskCardValue } from './domain/card-masking.ts';
import { currentContext } from './observability/context.ts';
import type { Logger } from './observability/logger-shape.ts';
import { isDatabaseStopping, isDatabaseUnavailable } from './db/unavailable.ts';

export type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export type { Logger };

/** Field names that may hold a secret or card data, wherever they sit (two levels deep). */
export const SECRET_KEYS = [
  'number', 'card_number', 'cardNumber', 'pan', 'cvc', 'cvv', 'security_code', 'securityCode',
  'secret', 'api_secret', 'apiSecret', 'webhook_secret', 'webhookSecret', 'password', 'token_secret',
  'authorization', 'Authorization', 'signature', 'masterKey', 'master_key',
  // A payment account's provider credentials (account-credentials.ts), whole or by their usual names.
  'credentials', 'secret_key', 'secretKey',
];
export const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
  ...['x-signature', 'X-Signature', 'x-api-key'].flatMap((k) => [`["${k}"]`, `*["${k}"]`]),
];

export type LogFormat = 'json' | 'pretty';

/**
 * `pretty` writes each entry as one readable line (pino-pretty), for a person at a terminal in
 * development; `json` (the default) keeps the JSON lines that log collectors read. Both are
 * scrubbed the same way first: the pretty line is made from the scrubbed JSON line.
 */
export function createLogger(level: Level = 'info', write: (line: string) => void = (l) => process.stdout.write(l + '\n'), format: LogFormat = 'json'): Logger {
  const out = format === 'pretty' ? prettyLines(write) : write;
  const base = pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      mixin: () => currentContext()?.fields ?? {},
      hooks: { streamWrite: (line) => scrubSecurityCodes(scrubCardNumbers(line)) },
    },
    { write: (chunk: string) => out(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) },
  );
  return wrap(base);
}

/** A request's access line reads `POST retrieve-bin 200 12.3 ms`; every other entry keeps its message, its fields after it on the same line. */
function prettyLines(write: (line: string) => void): (line: string) => void {
  const prettify = prettyFactory({ colorize: false, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', messageKey: 'msg' });
  return (line) => {
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (entry.msg === 'request') {
      const { method, operation, status, duration_ms: ms, ...rest } = entry;
      write(prettify({ ...rest, msg: `${String(method)} ${String(operation)} ${String(status)} ${String(ms)} ms` }).replace(/\n$/, ''));
      return;
    }
    write(prettify(entry).replace(/\n$/, ''));
  };
}

function wrap(p: pino.Logger): Logger {
  const at = (level: 'debug' | 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) => (fields ? p[level](fields, msg) : p[level](msg));
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (bindings) => wrap(p.child(bindings)) };
}

/**
 * Defence in depth: a card number is masked before writing (domain/card-masking.ts: by the field's
 * name, else a Luhn-valid run of 12-19 digits), inside strings and as a bare number, while the
 * banks' references stay whole. A bare number that is masked becomes the masked text as a JSON
 * string, so the line stays JSON.
 */
export function scrubCardNumbers(line: string): string {
  return line.replace(JSON_TOKEN, (token: string, key: string | undefined, value: string | undefined) => {
    if (value === undefined) return masked('', token);
    const at = token.length - value.length;
    return token.slice(0, at) + masked(key!, value);
  });
}

/** A JSON string literal or number (its key's name first when it is an object member's value), as pino writes them. */
const JSON_TOKEN = /"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

function masked(key: string, token: string): string {
  if (token.startsWith('"')) return `"${maskCardValue(key, token.slice(1, -1))}"`;
  const text = maskCardValue(key, token);
  return text === token ? token : JSON.stringify(text);
}

/**
 * Defence in depth: a security code written inside a message (e.g. an echoed GraphQL input,
 * `securityCode: "739"`) or as a field deeper than the redaction paths reach is blanked.
 */
export function scrubSecurityCodes(line: string): string {
  return line.replace(SECURITY_CODE, (_m, q1 = '', key: string, q2 = '', sep: string, q3 = '') => {
    // A quoted value keeps its quotes; a bare one is a JSON field's number (quote the mask: the
    // key's own closing quote says so, also when the name only ends in the word, e.g. iyzico's
    // `forceCvc`) or text inside a message (no quotes: they would end the JSON string).
    const mask = q3 ? `${q3}[redacted]` : q2 === '"' ? '"[redacted]"' : '[redacted]';
    return `${q1}${key}${q2}${sep}${mask}`;
  });
}
const SECURITY_CODE = /(\\?")?(security_?code|cvc2?|cvv2?)(\\?")?(\s*[:=]\s*)(\\?")?[^"\\,}\]{[\s]+/gi;

/** The logger of the request or job under way, else `fallback` (domain code has no logger of its own). */
export function contextLogger(fallback?: Logger): Logger | undefined {
  return currentContext()?.logger ?? fallback;
}

/**
 * A pooled connection that PostgreSQL itself closed because it is shutting down (SQLSTATE 57P01 or
 * 57P03, e.g. Ctrl+C reached the embedded server with the rest of the process group) is expected
 * during a stop and is not an error of the gateway: info. Any other loss is a warning.
 */
export function logConnectionLoss(logger: Logger, msg: string, err: Error & { code?: string }): void {
  const at = isShutdownLoss(err) ? 'info' : 'warn';
  logger[at](msg, { error: err.message, code: err.code });
}

/**
 * PostgreSQL is stopping: it ended the connection (57P01) or refuses a new one while shutting down
 * (57P03). With Ctrl+C to the whole process group the embedded server gets the signal too and may
 * stop before the gateway's own orderly stop has closed its connections.
 */
export function isShutdownLoss(err: Error & { code?: string }): boolean {
  if (isDatabaseStopping(err)) return true;
  // Once a stop has begun, a connection the stopping server dropped or refused is part of it too.
  return stopBegun && isDatabaseUnavailable(err);
}

let stopBegun = false;
/** Called by the process when a stop begins (a signal): from then on dropped connections are expected. */
export function noteStopBegun(): void {
  stopBegun = true;
}
