// retrieve-payment: one payment of the workspace by token; changes nothing.
import { z } from 'zod';
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { parseInput, uuid } from '../validation.ts';
import { requireActive } from '../plans.ts';
import { NotFoundError } from '../errors.ts';
import type { Tx } from '../../db/client.ts';
import { paymentViewSelect, type PaymentView } from './view.ts';

export const tokenInput = z.object({ transaction: z.object({ token: uuid() }, { error: 'required' }) });

export async function retrievePayment(s: Services, workspace: Workspace, raw: unknown): Promise<PaymentView> {
  requireActive(workspace);
  const { transaction } = parseInput(tokenInput, raw);
  return findPayment(s.db, workspace.id, transaction.token);
}

/** Another workspace's payment is "not found", with the same message as a made-up token. */
export async function findPayment(db: Tx, workspaceId: string, token: string): Promise<PaymentView> {
  const found = await db.payment.findFirst({ where: { id: token, workspaceId }, select: paymentViewSelect });
  if (!found) throw NotFoundError.single(['transaction', 'token'], 'payment_not_found');
  return found;
}

export function parseTokenInput(raw: unknown): string {
  return parseInput(tokenInput, raw).transaction.token;
}
