// Webhook addresses of a workspace (contract: Address configuration): a public https URL added once,
// with at least one selected event (or all) of the workspace's open modules; can be disabled.
import { z } from 'zod';
import type { WebhookAddress, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { Tx } from '../../db/client.ts';
import { isUuid, parseInput } from '../validation.ts';
import { IssueList, NotFoundError, ValidationError } from '../errors.ts';
import { destinationAllowed } from './outbound.ts';
import { eventsOpenFor } from './kinds.ts';
import { newSigningSecret } from './signing.ts';


const eventsField = z.array(z.string({ error: 'invalid_type' }), { error: 'invalid_type' }).nullish();

const addInput = z.object({
  url: z.string({ error: 'invalid_type' }).max(2048, { error: 'too_long' }),
  events: eventsField,
  allEvents: z.boolean({ error: 'invalid_boolean' }).nullish(),
});

/** Checks the selection: at least one event, each open in the workspace; "all" selects all. */
function checkEvents(
  workspace: Workspace,
  events: string[] | null | undefined,
  allEvents: boolean | null | undefined,
  issues = new IssueList(),
): { events: string[]; allEvents: boolean } {
  if (allEvents) {
    issues.throwIfAny();
    return { events: [], allEvents: true };
  }
  const open = new Set<string>(eventsOpenFor(workspace));
  const unique = [...new Set(events ?? [])];
  if (unique.length === 0) issues.add(['events'], 'webhook_events_required');
  unique.forEach((e) => {
    if (!open.has(e)) issues.add(['events', (events ?? []).indexOf(e)], 'webhook_event_unknown');
  });
  issues.throwIfAny();
  return { events: unique, allEvents: false };
}

/**
 * One spelling per address, so "added once" holds for `https://Shop.example` and
 * `https://shop.example/` alike: the WHATWG form, which is also what the HTTP client sends.
 */
export function normalizeUrl(raw: string): string {
  try {
    return new URL(raw.trim()).href;
  } catch {
    return raw;
  }
}

/** A new address with its own signing secret (signing.ts), returned in plain text only here. */
export async function addWebhookAddress(s: Services, workspace: Workspace, raw: unknown): Promise<WebhookAddress & { signingSecret: string }> {
  const input = parseInput(addInput, raw);
  const url = normalizeUrl(input.url);
  // Every bad field at once: the URL and the selection.
  const issues = new IssueList();
  if (!(await destinationAllowed(url, s.webhooks))) issues.add(['url'], 'webhook_url_invalid');
  const selection = checkEvents(workspace, input.events, input.allEvents, issues);
  const { signingSecret, signingSecretEncrypted } = newSigningSecret(s.masterKey);
  try {
    const address = await s.db.webhookAddress.create({ data: { workspaceId: workspace.id, url, ...selection, signingSecretEncrypted } });
    return { ...address, signingSecret };
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw ValidationError.single(['url'], 'webhook_url_exists');
    throw err;
  }
}

export async function findAddress(s: Services, workspace: Workspace, id: string): Promise<WebhookAddress> {
  const address = isUuid(id) ? await s.db.webhookAddress.findFirst({ where: { id, workspaceId: workspace.id } }) : null;
  if (!address) throw NotFoundError.single(['id'], 'webhook_not_found');
  return address;
}

export async function setWebhookEvents(s: Services, workspace: Workspace, id: string, events: string[] | null | undefined, allEvents: boolean | null | undefined): Promise<WebhookAddress> {
  const address = await findAddress(s, workspace, id);
  return s.db.webhookAddress.update({ where: { id: address.id }, data: checkEvents(workspace, events, allEvents) });
}

/**
 * A disabled address gets nothing, including notifications already queued: they are dropped now
 * (and an attempt that was due meanwhile is dropped at delivery), so enabling it again later
 * does not bring them back; they can still be resent by hand.
 */
export async function setWebhookEnabled(s: Services, workspace: Workspace, id: string, enabled: boolean): Promise<WebhookAddress> {
  const address = await findAddress(s, workspace, id);
  return s.db.$transaction(async (tx) => {
    if (!enabled) await dropQueued(tx, address.id);
    return tx.webhookAddress.update({ where: { id: address.id }, data: { enabled } });
  });
}

/** Deleting drops its queued notifications and keeps the rest (they remember their URL for a manual resend). */
export async function deleteWebhookAddress(s: Services, workspace: Workspace, id: string): Promise<WebhookAddress> {
  const address = await findAddress(s, workspace, id);
  await s.db.$transaction(async (tx) => {
    await dropQueued(tx, address.id);
    await tx.webhookAddress.delete({ where: { id: address.id } });
  });
  return address;
}

async function dropQueued(tx: Tx, addressId: string): Promise<void> {
  await tx.notification.updateMany({ where: { addressId, status: 'pending' }, data: { status: 'dropped', nextAttemptAt: null } });
}

/** By URL in any spelling of it (stored URLs are normalized). */
export async function findAddressByUrl(s: Services, workspace: Workspace, url: string): Promise<WebhookAddress> {
  const address = await s.db.webhookAddress.findFirst({ where: { workspaceId: workspace.id, url: normalizeUrl(url) } });
  if (!address) throw NotFoundError.single(['url'], 'webhook_not_found');
  return address;
}
