// Assembles a running gateway: database (embedded or DATABASE_URL) -> migrations and the serving
// role's privileges (as the owner) -> services on the serving role -> HTTP server + jobs. main.ts and the tests both start gateways through here.
import { warmIpCountry } from './domain/risk/ip-country.ts';
import { Prisma } from './generated/prisma/client.ts';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { publicBaseUrl, type Config } from './config.ts';
import { createDb, type Db } from './db/client.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { configuredUrls, prepareDatabase, type DatabaseUrls } from './db/migrate.ts';
import { systemClock, type Clock } from './domain/clock.ts';
import { staticRates } from './domain/conversion.ts';
import type { Services } from './domain/services.ts';
import { createApp, type App } from './app.ts';
import { liveEvents } from './graphql/live.ts';
import { startNotifications } from './db/notifications.ts';
import { JOBS_STOP_LIMIT_MS, withinLimit, type StopStep } from './stop-steps.ts';
import { RISK_CHANNEL, riskMemory } from './domain/risk/memory.ts';
import { EVENTS_CHANNEL } from './domain/events.ts';
import { SESSIONS_CHANNEL } from './domain/people/sessions.ts';
import { ADMISSION_CHANNEL, admissionMemory, type AdmissionMemory } from './rest/admission-memory.ts';
import { agendaScheduler, createJobRunner, type JobRunner } from './jobs/agenda.ts';
import { defineJobs, scheduleRecurringJobs } from './jobs/index.ts';
import { createRegistry } from './providers/registry.ts';
import { attemptWriter } from './domain/provider-attempts.ts';
import { derivedKeys, providerCatalog } from './providers/catalog.ts';
import { decryptSecret } from './domain/secrets.ts';
import { createLogger, isShutdownLoss, type Logger } from './logger.ts';
import { demoCredentialsLine, readDemoToken, seedDemo, type DemoCredentials } from './demo.ts';
import { paymentOwners } from './domain/payments/owners.ts';
import { apiPayments } from './domain/payments/api-owner.ts';
import { orderPayments } from './domain/orders/owner.ts';
import { linkPayments } from './domain/payment-links/owner.ts';
import { SEND_RECEIPT_JOB } from './domain/payment-links/receipt.ts';
import { createMailer } from './mail.ts';
import type { Scheduler } from './domain/scheduler.ts';
import { subscriptionPayments } from './domain/subscriptions/owner.ts';
import { openMasterKey } from './master-key.ts';
import { workerIndex } from './cluster.ts';
import { createMetrics } from './observability/metrics.ts';
import { startTracing } from './observability/tracing.ts';
import { queryRows } from './db/raw.ts';
import { portError } from './http/port.ts';

export interface Gateway {
  config: Config;
  services: Services;
  app: App;
  jobs: JobRunner;
  port: number;
  baseUrl: string;
  databaseUrl: string;
  masterKey: Buffer;
  demo: DemoCredentials | null;
  /** What the REST calls' admissions remember; `synced()` waits for changes made elsewhere. */
  admission: AdmissionMemory;
  stop(): Promise<void>;
}

export interface GatewayOptions {
  clock?: Clock;
  logger?: Logger;
  /** Create the demo workspace when the database has none (npm start does when config.seedDemo says so; tests opt in). */
  seedDemo?: boolean;
  /** Sees every SQL statement of the gateway's Prisma client (statement-budget tests). */
  onQuery?: (sql: string) => void;
}

/** Every way of taking money, by the owner of its payments: a new one is a row here (the CLI's test clock uses it too). */
export const gatewayOwners = (scheduler: Scheduler, clock: Clock) =>
  paymentOwners([
    apiPayments,
    orderPayments,
    subscriptionPayments,
    linkPayments({ queueReceipt: (id) => scheduler.schedule(SEND_RECEIPT_JOB, clock.now(), { linkPaymentId: id }, `receipt:${id}`) }),
  ]);

/**
 * What every domain operation may use, from the settings and the parts the caller opened (the
 * gateway, and the CLI's commands that run domain work such as the test clock).
 */
export function createServices(config: Config, parts: { db: Db; clock: Clock; scheduler: Scheduler; masterKey: Buffer; logger: Logger }): Services {
  const { db, clock, scheduler, masterKey, logger } = parts;
  const deps = {
    now: () => clock.now(),
    // Read at call time: the address is known only once the gateway listens.
    baseUrl: () => services.baseUrl,
    key: derivedKeys(masterKey),
    log: (msg: string, fields: Record<string, unknown>) => logger.debug(msg, fields),
  };
  const attempts = attemptWriter(db, clock, (msg, fields) => logger.warn(msg, fields));
  const services: Services = {
    db,
    clock,
    warn: (msg, fields) => logger.warn(msg, fields),
    providers: createRegistry(providerCatalog(deps), (stored, subject) => decryptSecret(masterKey, stored, subject), attempts),
    attempts,
    rates: staticRates(config.CONVERSION_RATES),
    scheduler,
    masterKey,
    webhooks: { production: config.NODE_ENV === 'production', timeoutMs: config.WEBHOOK_TIMEOUT_MS, concurrency: config.WEBHOOK_CONCURRENCY },
    baseUrl: config.baseUrl,
    owners: gatewayOwners(scheduler, clock),
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger }),
  };
  return services;
}

export async function startGateway(config: Config, opts: GatewayOptions = {}): Promise<Gateway> {
  // In a cluster every line says which worker wrote it.
  const worker = workerIndex();
  const logger = opts.logger ?? (worker ? createLogger(config.LOG_LEVEL, undefined, config.logFormat).child({ worker }) : createLogger(config.LOG_LEVEL, undefined, config.logFormat));
  const clock = opts.clock ?? systemClock;
  // The IP country table is unpacked here rather than on the first payment (about 0.1 s).
  warmIpCountry();
  mkdirSync(config.dataDir, { recursive: true });
  let embedded: EmbeddedDatabase | null = null;
  let urls: DatabaseUrls;
  if (config.DATABASE_URL) {
    urls = configuredUrls(config.DATABASE_URL, config.DATABASE_OWNER_URL);
  } else {
    embedded = await startEmbeddedPostgres({ dir: path.join(config.dataDir, 'pg'), port: config.EMBEDDED_PG_PORT, log: logger.warn });
    urls = embedded.urls;
    logger.info('embedded PostgreSQL started', { port: config.EMBEDDED_PG_PORT, dir: path.join(config.dataDir, 'pg') });
  }
  // Everything from here on (requests, jobs, notifications) uses the serving role's connections.
  const databaseUrl = urls.serving;
  // Stopped in reverse order of start (HTTP first, the embedded PostgreSQL last), once: a second
  // stop() waits for the first instead of running the steps again.
  const stops: StopStep[] = [];
  let stopping: Promise<void> | null = null;
  // /healthz says 200 only from the end of start-up (demo credentials written) until stop begins.
  let ready = false;
  const stopAll = () =>
    (stopping ??= (async () => {
      ready = false;
      for (const step of [...stops].reverse()) {
        // A step that found PostgreSQL already stopping (group Ctrl+C) has nothing left to close.
        await withinLimit(step, logger).catch((err: Error) => (isShutdownLoss(err) ? logger.info('stop step found the database stopping', { step: step.name, error: err.message }) : logger.error('stop failed', { step: step.name, error: err.message })));
      }
    })());
  if (embedded) stops.push({ name: 'embedded PostgreSQL', run: () => embedded.stop(), limitMs: null });
  try {
    // Tracing (when an OTLP endpoint is configured) is stopped after everything that makes spans,
    // so a clean stop exports the last requests' and jobs' spans.
    const tracing = await startTracing(config, logger);
    stops.push({ name: 'tracing', run: () => tracing.shutdown() });
    const { applied } = await prepareDatabase(urls);
    if (applied.length) logger.info('migrations applied', { applied });
    const db: Db = createDb(databaseUrl, { max: config.DB_POOL_SIZE, maxWait: config.DB_TX_MAX_WAIT_MS, queryTimeoutMs: config.DB_QUERY_TIMEOUT_MS, onQuery: opts.onQuery, direct: !tracing.enabled });
    stops.push({ name: 'database pool', run: () => db.$disconnect() });
    const masterKey = await openMasterKey(config, db, logger);

    // The runner's own statements are small: one the database leaves unanswered for longer than a
    // request's statement may wait is lost (a silent database) whatever the runner's own limit.
    const jobs = await createJobRunner({ databaseUrl, mongoUrl: config.AGENDA_MONGO_URL, processEvery: config.AGENDA_PROCESS_EVERY_MS, logger, tracing, queryTimeoutMs: Math.min(config.DB_QUERY_TIMEOUT_MS, 15_000) });
    const services = createServices(config, { db, clock, scheduler: agendaScheduler(jobs.agenda), masterKey, logger });
    // Before the pool ends, after the jobs and the server stopped: their last provider attempts are written.
    stops.push({ name: 'provider attempts', run: () => services.attempts.drain() });
    // Registered before start so a failure later in start-up (port taken) still ends its pool.
    stops.push({ name: 'jobs', run: () => jobs.stop(), limitMs: JOBS_STOP_LIMIT_MS });
    const metrics = createMetrics(db);
    services.observe = {
      webhookAttempt: metrics.observeWebhookAttempt,
      callbackRejected: metrics.observeCallbackRejection,
      riskStopped: metrics.observeRiskStopped,
    };

    // One LISTEN connection for the process: live events and admission changes.
    const notifications = await startNotifications(databaseUrl, [EVENTS_CHANNEL, ADMISSION_CHANNEL, SESSIONS_CHANNEL, RISK_CHANNEL], logger);
    stops.push({ name: 'notifications', run: () => notifications.stop() });
    if (config.RISK_MEMORY_MS > 0) services.riskMemory = riskMemory(notifications, config.RISK_MEMORY_MS, { workspaceChanged: ADMISSION_CHANNEL });
    const live = liveEvents(notifications, logger);
    stops.push({ name: 'live events', run: () => live.stop() });
    const admission = admissionMemory(notifications, db, config.ADMISSION_MEMORY_MS);
    const rateLimits = { perSecond: config.RATE_LIMIT_PER_SECOND, linksPerMinute: config.RATE_LIMIT_LINKS_PER_MINUTE };
    const app = createApp({
      services,
      live,
      rateLimits,
      ...(config.ADMISSION_MEMORY_MS > 0 ? { admission } : {}),
      masterKey,
      logger,
      metrics,
      tracing,
      ...(config.NODE_ENV === 'production' ? {} : { demoToken: () => readDemoToken(config.dataDir) }),
      security: { publicUrl: config.BASE_URL, trustProxy: config.TRUST_PROXY },
      graphql: { production: config.NODE_ENV === 'production', corsOrigins: config.CORS_ORIGINS, logger, trustProxy: config.TRUST_PROXY },
      isHealthy: async () => ready && jobs.running && (await queryRows(db, Prisma.sql`SELECT 1`).then(() => true)),
    });
    const port = await listen(app, config.PORT, config.HOST);
    stops.push({ name: 'HTTP server', run: () => app.close() });
    const baseUrl = publicBaseUrl(config, port);
    services.baseUrl = baseUrl;
    defineJobs(jobs.agenda, services);
    await jobs.start();
    await scheduleRecurringJobs(jobs.agenda, config, services);

    const demo = opts.seedDemo ? await seedDemo(db, masterKey, baseUrl, config.dataDir, logger) : null;
    const where = opts.seedDemo && !demo ? demoCredentialsLine(config.dataDir) : null;
    if (where) process.stdout.write(where);
    logger.info('gateway listening', { url: baseUrl, graphiql: `${baseUrl}/graphql` });
    ready = true;
    return { config, services, app, jobs, port, baseUrl, databaseUrl, masterKey, demo, admission, stop: stopAll };
  } catch (err) {
    logger.error('gateway failed to start', { error: (err as Error).message });
    await stopAll();
    throw err;
  }
}

/**
 * app.listen, with a port that is taken (or not allowed) said in one sentence naming it. The
 * WebSocket server forwards the HTTP server's errors and graphql-ws prints any it gets as an
 * "internal error" with a stack trace; a listen error is the start's to report, so those
 * listeners are off while listening.
 */
async function listen(app: App, port: number, host: string): Promise<number> {
  const forwarders = app.server.listeners('error') as Array<(err: Error) => void>;
  app.server.removeAllListeners('error');
  try {
    return await app.listen(port, host);
  } catch (err) {
    throw portError(err, port, host);
  } finally {
    for (const f of forwarders) app.server.on('error', f);
  }
}
