// Which events a workspace may select: only those of modules open in it (contract: Address configuration).
import type { Workspace } from '../../generated/prisma/client.ts';
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
