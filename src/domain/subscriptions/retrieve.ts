// retrieve-subscription: one subscription of the workspace by token; changes nothing. Another
// workspace's token reads exactly like a made-up one.
import { z } from 'zod';
import { Prisma, type Subscription, type Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { Tx } from '../../db/client.ts';
import { parseInput, uuid } from '../validation.ts';
import { requireFeature } from '../plans.ts';
import { NotFoundError } from '../errors.ts';
import { subscriptionInclude, type SubscriptionView } from './view.ts';
import { queryRows } from '../../db/raw.ts';

export const TOKEN_PATH = ['subscription', 'token'];

export const tokenInput = z.object({ subscription: z.object({ token: uuid() }, { error: 'required' }) });

export async function retrieveSubscription(s: Services, workspace: Workspace, raw: unknown): Promise<SubscriptionView> {
  requireFeature(workspace, 'subscriptions');
  const { subscription } = parseInput(tokenInput, raw);
  return findSubscription(s.db, workspace.id, subscription.token);
}

export async function findSubscription(db: Tx, workspaceId: string, token: string): Promise<SubscriptionView> {
  const found = await db.subscription.findFirst({ where: { id: token, workspaceId }, include: subscriptionInclude });
  if (!found) throw NotFoundError.single(TOKEN_PATH, 'subscription_not_found');
  return found;
}

/**
 * Locks the subscription row: cancels, renewals, page payments and settlements of one
 * subscription take their turns, so a renewal racing a cancel is decided once.
 */
export async function lockSubscription(tx: Tx, id: string, workspaceId?: string): Promise<Subscription | null> {
  const rows = workspaceId
    ? await queryRows<{ id: string }>(tx, Prisma.sql`SELECT id FROM "Subscription" WHERE id = ${id}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR UPDATE`)
    : await queryRows<{ id: string }>(tx, Prisma.sql`SELECT id FROM "Subscription" WHERE id = ${id}::uuid FOR UPDATE`);
  if (rows.length === 0) return null;
  return tx.subscription.findUniqueOrThrow({ where: { id } });
}
