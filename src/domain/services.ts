// What every domain operation may use, built once per gateway by startGateway in src/gateway.ts
// (main.ts and the tests start gateways through it).
import type { Db } from '../db/client.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { Clock } from './clock.ts';
import type { RateSource } from './conversion.ts';
import type { Scheduler } from './scheduler.ts';
import type { PaymentOwners } from './payments/owners.ts';
import type { Mailer } from './mailer.ts';
import type { AttemptWriter } from './provider-attempts.ts';
import type { RiskMemory } from './risk/memory.ts';

/** How webhooks are delivered (webhooks/delivery.ts). */
export interface WebhookSettings {
  production: boolean;
  timeoutMs: number;
  /** Parallel HTTP attempts per process. */
  concurrency: number;
}

export interface Services {
  db: Db;
  clock: Clock;
  providers: ProviderRegistry;
  /** Where the providers' connectors record their calls (written in the background). */
  attempts: AttemptWriter;
  rates: RateSource;
  scheduler: Scheduler;
  /** Decrypts workspaces' API secrets (webhook signatures are keyed with them). */
  masterKey: Buffer;
  webhooks: WebhookSettings;
  /** Who owns each kind of payment (API, order, ...): their events and pages. */
  owners: PaymentOwners;
  /** Sends e-mail (link receipts); logs them when SMTP_URL is not set. */
  mailer: Mailer;
  /** Public base URL of the gateway, for redirect and checkout addresses. */
  baseUrl: string;
  /** Warnings about work done in the background that has no caller to answer (health judgements). */
  warn(message: string, fields: Record<string, unknown>): void;
  /** What this process remembers of the card-testing guard's counts (risk/memory.ts); absent: every attempt is counted. */
  riskMemory?: RiskMemory;
  /** Operational counters (metrics); absent in gateways built without them. */
  observe?: {
    webhookAttempt(outcome: 'delivered' | 'retry' | 'failed', lagSeconds: number | null): void;
    /** A 3-D Secure callback the connector rejected, by provider and cause. */
    callbackRejected(provider: string, cause: string): void;
    /** An attempt the risk decision refused, once per rule that refused it (risk/judge.ts). */
    riskStopped(rule: string): void;
  };
}
