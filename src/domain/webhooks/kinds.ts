// Which events a workspace may select: only those of modules open in it (contract: Address configuration).
import type { WebhookAddress, Workspace } from '../../generated/prisma/client.ts';
import { EVENT_KINDS, type EventKind } from '../events.ts';
import { covers } from '../plans.ts';

export function isEventKind(value: string): value is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(value);
}

export function eventsOpenFor(workspace: Workspace): EventKind[] {
  return EVENT_KINDS.filter((kind) => {
    const module = kind.split('.')[0];
    if (module === 'order') return covers(workspace, 'orders');
    if (module === 'subscription') return covers(workspace, 'subscriptions');
    if (module === 'payment_link') return covers(workspace, 'payment_links') && workspace.payByLinkEnabled;
    return true;
  });
}

/** What an address gets now: its selection (or every kind) among the kinds still open in the workspace. */
export function eventsOfAddress(workspace: Workspace, address: Pick<WebhookAddress, 'allEvents' | 'events'>): EventKind[] {
  const open = eventsOpenFor(workspace);
  return address.allEvents ? open : open.filter((kind) => address.events.includes(kind));
}
