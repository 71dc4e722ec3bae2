// Every setting, read once from the environment. Nothing else reads process.env.
import { z } from 'zod';
import path from 'node:path';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** Public address of this gateway; used in redirect and checkout URLs. https turns HSTS on. */
  BASE_URL: z.string().url().optional(),
  /** A reverse proxy in front terminates TLS: believe its X-Forwarded-Proto (https -> HSTS). */
  TRUST_PROXY: z.stringbool().default(false),
  /**
   * Browser origins besides BASE_URL's own that may call /graphql (CORS), comma-separated, e.g.
   * "https://support.example.com,https://admin.example.com". Others get no CORS headers.
   */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((o) => o.trim()).filter(Boolean))
    .refine((list) => list.every(isOrigin), 'each entry must be an origin like https://support.example.com (scheme, host and port only)'),
  DATA_DIR: z.string().default('.data'),
  /**
   * What the gateway serves with: a role that may read and write rows and nothing more (README,
   * Database). When unset, an embedded PostgreSQL is started with its data under DATA_DIR/pg.
   */
  DATABASE_URL: z.string().optional(),
  /**
   * The owner of the schema, on the same database: applies the migrations and grants DATABASE_URL's
   * role its privileges (creating it when missing and the owner may). Unset: DATABASE_URL does both.
   * Empty = unset (the primary passes it to no worker).
   */
  DATABASE_OWNER_URL: z
    .string()
    .optional()
    .transform((s) => s || undefined),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54320),
  /** 64 hex chars or base64 of 32 bytes; with the embedded database it is generated into DATA_DIR. */
  GATEWAY_MASTER_KEY: z.string().optional(),
  /** Selects Agenda's MongoDB backend instead of PostgreSQL (not installed by default). */
  AGENDA_MONGO_URL: z.string().optional(),
  /** How often Agenda looks for due jobs, in milliseconds. */
  AGENDA_PROCESS_EVERY_MS: z.coerce.number().int().min(50).default(1000),
  /** Webhook attempt timeout (contract: 15 s), parallel attempts per process, and how often due ones are looked for. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(100),
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  /** Gateway processes sharing the port, the database and the jobs (node:cluster); 1 = this process serves alone. */
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  /** Database connections per process, and how long a request's transaction may wait for one before answering 503. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  DB_TX_MAX_WAIT_MS: z.coerce.number().int().min(10).default(10_000),
  /** How long a statement may go unanswered before the request answers 503 and its connection is dropped (a silent network). */
  DB_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Requests per second of one workspace over every operation, and per minute on the payment-link operations; 0 = no limit. */
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(0).default(100),
  RATE_LIMIT_LINKS_PER_MINUTE: z.coerce.number().int().min(0).default(300),
  /**
   * How long a process may use a REST call's admission (credential live, workspace row, its share
   * of the per-second window) without reading it again; changes are announced at once anyway
   * (src/rest/admission-memory.ts). 0 = every call reads its admission.
   */
  ADMISSION_MEMORY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /**
   * How long a process may judge a quiet source's repeated card from the card-testing guard's last
   * count instead of counting it again (src/domain/risk/memory.ts). 0 = every attempt is counted.
   */
  RISK_MEMORY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** SMTP server for link receipts, e.g. smtp://user:pass@mail.example.com:587; unset: receipts are logged. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Payment Gateway <no-reply@localhost>'),
  /**
   * OpenTelemetry traces (OTLP/HTTP, JSON), off unless one of the standard endpoints is set: the
   * collector's base address (spans go to <it>/v1/traces) or the full traces address. Empty = unset.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
  /**
   * Create the demo workspace on a start with an empty database: `true`/`1` or `false`/`0`; unset,
   * only a development start on the embedded PostgreSQL does (never with DATABASE_URL or in production).
   */
  SEED_DEMO: z.enum(['true', 'false', '1', '0']).optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** `pretty`: one readable line per entry (pino-pretty); `json`: one JSON line. Unset: pretty in development on a terminal, else JSON. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  NODE_ENV: z.string().default('development'),
  /** Static conversion rates, e.g. "USD:TRY=32.5,EUR:TRY=35.1" (target currency units per source unit). */
  CONVERSION_RATES: z.string().default('USD:TRY=32.50,EUR:TRY=35.10,GBP:TRY=41.20,TRY:USD=0.0308,TRY:EUR=0.0285,TRY:GBP=0.0243'),
}).refine((c) => !c.DATABASE_OWNER_URL || c.DATABASE_URL, {
  path: ['DATABASE_OWNER_URL'],
  message: "needs DATABASE_URL too (the serving role's URL); the embedded PostgreSQL sets up both roles itself",
});

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

export type Config = Readonly<z.infer<typeof schema> & { dataDir: string; baseUrl: string; seedDemo: boolean; logFormat: 'json' | 'pretty' }>;

/** Parses the environment (or the given overrides, for tests); fails at boot on a bad value. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return Object.freeze({
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    seedDemo: c.SEED_DEMO === undefined ? !c.DATABASE_URL && c.NODE_ENV !== 'production' : c.SEED_DEMO === 'true' || c.SEED_DEMO === '1',
    baseUrl: (c.BASE_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`).replace(/\/$/, ''),
    // Log collectors read JSON; a person at a terminal reads lines.
    logFormat: c.LOG_FORMAT ?? (c.NODE_ENV !== 'production' && process.stdout.isTTY ? 'pretty' : 'json'),
  });
}

/**
 * What a production start (NODE_ENV=production: `npm run start:prod`, the image) needs besides
 * valid values, checked before anything starts: its own PostgreSQL (the embedded one is for
 * development) and the master key its secrets are encrypted with. Throws one message naming each.
 */
export function assertStartable(config: Config): void {
  if (config.NODE_ENV !== 'production') return;
  const lines: string[] = [];
  if (!config.DATABASE_URL) lines.push('  DATABASE_URL: required with NODE_ENV=production (the embedded PostgreSQL is for development): set it to postgresql://user:password@host:5432/database');
  if (!config.GATEWAY_MASTER_KEY) lines.push('  GATEWAY_MASTER_KEY: required with NODE_ENV=production: make one with `openssl rand -hex 32` and keep it (it decrypts the stored API secrets)');
  if (lines.length) throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
}


/** The gateway's public address once it listens on `port` (PORT=0 picks one): BASE_URL when set. */
export function publicBaseUrl(config: Config, port: number): string {
  return config.BASE_URL ? config.baseUrl : `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
}
