// `gateway webhooks …`: a workspace's webhook addresses (contract: Events, Address configuration).
// Every rule (https and public in production, added once, events of open modules, disabling drops
// queued notifications) lives in src/domain/webhooks/addresses.ts; this file only parses words,
// calls it, and prints.
import type { Command } from 'commander';
import type { WebhookAddress } from '../generated/prisma/client.ts';
import { DomainError } from '../domain/errors.ts';
import { EVENT_KINDS } from '../domain/events.ts';
import { message } from '../domain/messages.ts';
import type { Services } from '../domain/services.ts';
import { addWebhookAddress, deleteWebhookAddress, findAddressByUrl, normalizeUrl, setWebhookEnabled } from '../domain/webhooks/addresses.ts';
import { isEventKind } from '../domain/webhooks/kinds.ts';
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS, rotateWebhookSecret } from '../domain/webhooks/rotation.ts';
import { sendTestEvent, testDelivered } from '../domain/webhooks/test-event.ts';
import { systemClock } from '../domain/clock.ts';
import { requireWorkspace } from '../domain/workspaces.ts';
import { withDatabase, type CliContext, type CliIo } from './context.ts';
import { CliError } from './parse.ts';

export interface EventSelection {
  events?: string[];
  allEvents?: boolean;
}

/** `--events a,b` or `--events all`; names are checked here so a typo gets the list of kinds. */
export function parseEvents(text: string): EventSelection {
  const words = [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];
  if (words.length === 1 && words[0]!.toLowerCase() === 'all') return { allEvents: true };
  if (words.length === 0) throw new CliError(`No event given (expected a comma list of ${EVENT_KINDS.join(', ')}; or all)`);
  for (const word of words) if (!isEventKind(word)) throw new CliError(`Unknown event "${word}" (expected ${EVENT_KINDS.join(', ')}; or all)`);
  return { events: words };
}

/**
 * The address functions use only the database, the master key (signing secrets), the clock and the
 * outbound policy (production from NODE_ENV).
 */
function webhookServices(ctx: CliContext): Services {
  const { config } = ctx;
  const s: Pick<Services, 'db' | 'masterKey' | 'clock' | 'webhooks'> = {
    db: ctx.db,
    masterKey: ctx.masterKey,
    clock: systemClock,
    webhooks: { production: config.NODE_ENV === 'production', timeoutMs: config.WEBHOOK_TIMEOUT_MS, concurrency: config.WEBHOOK_CONCURRENCY },
  };
  return s as Services;
}

/** A domain error on one line, in Turkish and English: `Bu adres zaten eklenmiş. / This address was already added.` */
export function domainErrorLine(err: DomainError): string {
  return err.issues.map((i) => `${message(i.code, 'tr', i.params)} / ${message(i.code, 'en', i.params)}`).join('; ');
}

/** Runs a webhook action with the database open; domain errors become one-line CLI errors (exit 1). */
function action<A extends unknown[]>(io: CliIo, run: (ctx: CliContext, s: Services, ...args: A) => Promise<void>) {
  return withDatabase(io, async (ctx, ...args: A) => {
    try {
      await run(ctx, webhookServices(ctx), ...args);
    } catch (err) {
      if (err instanceof DomainError) throw new CliError(domainErrorLine(err));
      throw err;
    }
  });
}

export function webhookJson(a: WebhookAddress) {
  return {
    id: a.id, url: a.url, enabled: a.enabled, all_events: a.allEvents, events: a.events, created_at: a.createdAt.toISOString(),
    signing_secret_set: a.signingSecretEncrypted !== null, previous_secret_until: a.previousSecretUntil?.toISOString() ?? null,
  };
}

const SHOWN_ONCE = '  Store it now: it is not shown again (X-Webhook-Signature, docs/webhooks.md).';

/** `--overlap-hours 24`: a whole number; the domain checks the bounds. */
function parseHours(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new CliError(`Not a whole number of hours: "${text}"`);
  return Number(text);
}

export function webhookLine(a: WebhookAddress): string {
  return `${a.url}  ${a.enabled ? 'enabled' : 'disabled'}  events=${a.allEvents ? 'all' : a.events.join(',')}  id=${a.id}`;
}

export function registerWebhookCommands(program: Command, io: CliIo): void {
  const webhooks = program.command('webhooks').description("Manage a workspace's webhook addresses (signed POSTs when records change)");

  webhooks
    .command('add')
    .description('Add a webhook address with the events it gets (https; http://127.0.0.1 only outside production)')
    .argument('<team>', 'workspace slug')
    .argument('<url>', 'the address, e.g. https://shop.example/hooks/gateway')
    .requiredOption('--events <list>', 'comma list of event kinds, e.g. transaction.successful,order.paid; or all', parseEvents)
    .action(
      action(io, async (ctx, s, team: string, url: string, opts: { events: EventSelection }) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const a = await addWebhookAddress(s, workspace, { url, events: opts.events.events, allEvents: opts.events.allEvents ?? false });
        ctx.print({ ...webhookJson(a), signing_secret: a.signingSecret }, [
          `Webhook added to "${team}":`,
          `  ${webhookLine(a)}`,
          `  signing secret: ${a.signingSecret}`,
          SHOWN_ONCE,
        ]);
      }),
    );

  webhooks
    .command('list')
    .description("List a workspace's webhook addresses")
    .argument('<team>', 'workspace slug')
    .action(
      action(io, async (ctx, _s, team: string) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const all = await ctx.db.webhookAddress.findMany({ where: { workspaceId: workspace.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
        ctx.print(all.map(webhookJson), all.length ? all.map(webhookLine) : [`No webhook addresses in "${team}".`]);
      }),
    );

  for (const [name, enabled, description] of [
    ['disable', false, 'Disable an address: it gets nothing, and notifications already queued for it are dropped'],
    ['enable', true, 'Enable a disabled address again (dropped notifications stay dropped)'],
  ] as const) {
    webhooks
      .command(name)
      .description(description)
      .argument('<team>', 'workspace slug')
      .argument('<url>', 'the address as added')
      .action(
        action(io, async (ctx, s, team: string, url: string) => {
          const workspace = await requireWorkspace(ctx.db, team);
          const found = await findAddressByUrl(s, workspace, normalizeUrl(url));
          const a = await setWebhookEnabled(s, workspace, found.id, enabled);
          ctx.print(webhookJson(a), [
            enabled ? `Webhook ${a.url} enabled in "${team}".` : `Webhook ${a.url} disabled in "${team}"; notifications queued for it were dropped.`,
          ]);
        }),
      );
  }

  webhooks
    .command('rotate-secret')
    .description(`Give an address a new signing secret; the previous one still signs during the overlap (default ${DEFAULT_OVERLAP_HOURS} h, 0 to ${MAX_OVERLAP_HOURS})`)
    .argument('<team>', 'workspace slug')
    .argument('<url>', 'the address as added')
    .option('--overlap-hours <n>', 'hours the previous secret keeps signing beside the new one', parseHours)
    .action(
      action(io, async (ctx, s, team: string, url: string, opts: { overlapHours?: number }) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const found = await findAddressByUrl(s, workspace, normalizeUrl(url));
        const { address: a, signingSecret } = await rotateWebhookSecret(s, workspace, found.id, { overlapHours: opts.overlapHours });
        const until = a.previousSecretUntil ? `the previous secret signs too until ${a.previousSecretUntil.toISOString()}` : 'the previous secret no longer signs';
        ctx.print({ ...webhookJson(a), signing_secret: signingSecret }, [`Signing secret of ${a.url} rotated; ${until}.`, `  signing secret: ${signingSecret}`, SHOWN_ONCE]);
      }),
    );

  webhooks
    .command('test')
    .description('POST a signed test event to an address now and show its answer (not stored, not retried)')
    .argument('<team>', 'workspace slug')
    .argument('<url>', 'the address as added')
    .option('--event <kind>', 'an event kind the address gets (default: its first)')
    .action(
      action(io, async (ctx, s, team: string, url: string, opts: { event?: string }) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const found = await findAddressByUrl(s, workspace, normalizeUrl(url));
        const r = await sendTestEvent(s, workspace, found.id, { event: opts.event });
        const answer = r.error ?? `HTTP ${r.httpStatus}`;
        ctx.print(
          { event: r.event, url: r.url, body: r.body, sent_at: r.sentAt.toISOString(), http_status: r.httpStatus, duration_ms: r.durationMs, response_excerpt: r.responseExcerpt, error: r.error },
          [`Test ${r.event} sent to ${r.url}: ${answer} in ${r.durationMs} ms`, `  body: ${r.body}`],
        );
        if (!testDelivered(r)) throw new CliError(`The receiver did not accept the test: ${answer}`);
      }),
    );

  webhooks
    .command('delete')
    .description('Delete an address; its queued notifications are dropped (sent ones keep their URL for a manual resend)')
    .argument('<team>', 'workspace slug')
    .argument('<url>', 'the address as added')
    .action(
      action(io, async (ctx, s, team: string, url: string) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const found = await findAddressByUrl(s, workspace, normalizeUrl(url));
        const a = await deleteWebhookAddress(s, workspace, found.id);
        ctx.print(webhookJson(a), [`Webhook ${a.url} deleted from "${team}".`]);
      }),
    );
}
