// retrieve-payment: one payment of the workspace by token; changes nothing.
import { z } from 'zod';
import type { Payment, Prisma, Refund, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { parseInput, uuid } from '../validation.ts';
import { requireActive } from '../plans.ts';
import { NotFoundError } from '../errors.ts';
import type { Tx } from '../../db/client.ts';
import { paymentViewSelect, type PaymentView } from './view.ts';

export const tokenInput = z.object({ transaction: z.object({ token: uuid() }, { error: 'required' }) });

/**
 * What retrieve-payment answers besides the contract's fields: the payment's state and its
 * refunds, so a merchant told of an event (or back from a hosted page) decides from one answer.
 */
const recordSelect = {
  ...paymentViewSelect,
  paymentStatus: true,
  refunds: { select: { type: true, status: true, amount: true, createdAt: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.PaymentSelect;

export type RetrievedPayment = PaymentView & Pick<Payment, 'paymentStatus'> & { refunds: Array<Pick<Refund, 'type' | 'status' | 'amount' | 'createdAt'>> };

export async function retrievePayment(s: Services, workspace: Workspace, raw: unknown): Promise<RetrievedPayment> {
  requireActive(workspace);
  const { transaction } = parseInput(tokenInput, raw);
  // One statement: the refunds come joined (relationJoins).
  const found = await s.db.payment.findFirst({ where: { id: transaction.token, workspaceId: workspace.id }, select: recordSelect });
  if (!found) throw NotFoundError.single(['transaction', 'token'], 'payment_not_found');
  return found;
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
