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

/** The address functions use only the database and the outbound policy (production from NODE_ENV). */
function webhookServices(ctx: CliContext): Services {
  const { config } = ctx;
  const s: Pick<Services, 'db' | 'webhooks'> = {
    db: ctx.db,
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
  return { id: a.id, url: a.url, enabled: a.enabled, all_events: a.allEvents, events: a.events, created_at: a.createdAt.toISOString() };
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
        ctx.print(webhookJson(a), [`Webhook added to "${team}":`, `  ${webhookLine(a)}`]);
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
