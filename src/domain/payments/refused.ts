// An attempt the risk decision stopped (risk/judge.ts): it is written as a failed payment under its
// owner, with the decision on the row, and settled at once through the owner's own settlement
// (transaction.failed, order.payment_failed, a link payment's failure...), exactly as a bank's
// refusal is, without an account being chosen or a bank being asked.
import type { Customer, Payment } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { refusedWhenBusy } from '../../db/busy.ts';
import { insertRow, insertRowUnder, type Columns, type Upsert } from '../../db/rows.ts';
import type { Services } from '../services.ts';
import { message } from '../messages.ts';
import type { RiskDecision } from '../risk/judge.ts';
import { loadPaymentView } from './view.ts';
import { settleAfterBank } from './settle.ts';
import type { AttemptRequest, AttemptResult } from './attempt-request.ts';

export async function refuseAttempt(s: Services, req: AttemptRequest, id: string, decision: RiskDecision & { code: string }): Promise<AttemptResult> {
  const now = s.clock.now();
  const columns: Columns<Payment> = {
    id,
    workspaceId: req.workspace.id,
    channelId: req.channelId,
    source: req.source,
    securityType: req.security === 'secure' ? 'secure' : 'non_secure',
    status: 'started',
    channelReference: req.channelReference,
    amount: req.amount,
    baseAmount: req.baseAmount ?? req.amount,
    currency: req.currency,
    installmentNumber: req.installmentNumber,
    isTest: req.workspace.mode === 'test',
    ip: req.ip,
    callbackUrl: req.callbackUrl,
    ...req.card.cardColumns,
    risk: decision.record,
    createdAt: now,
  };
  const claim = req.claim;
  if (claim) {
    await s.db.$transaction(async (tx) => {
      const { customer: _customer, ...owner } = await claim(tx, now);
      await write(tx, { ...columns, ...owner }, req.customer);
    });
  } else {
    await refusedWhenBusy(s.db, () => write(s.db, columns, req.customer));
  }
  return settleRefused(s, req, id, decision.code, {});
}

/**
 * An attempt refused after its row was written `started` under the account routing chose (the guard
 * counted it in that row's statement: attempt.ts): settled failed like the attempts above, with the
 * decision, and without the account, the route or the conversion, so that it reads as an attempt
 * that never reached account choice (and never counts as a bank's decline).
 */
export function refuseWritten(s: Services, req: AttemptRequest, id: string, decision: RiskDecision & { code: string }): Promise<AttemptResult> {
  return settleRefused(s, req, id, decision.code, {
    risk: decision.record,
    paymentAccountId: null,
    routingReason: null,
    routingDetail: null,
    chargedAmount: null,
    chargedCurrency: null,
    conversionRate: null,
    isTest: req.workspace.mode === 'test',
    shouldSave: false,
  });
}

async function settleRefused(s: Services, req: AttemptRequest, id: string, code: string, also: Columns<Payment>): Promise<AttemptResult> {
  const text = message(`decline_${code}` as Parameters<typeof message>[0]);
  await settleAfterBank(s, { id, workspaceId: req.workspace.id, source: req.source }, { status: 'failed', errorCode: code, errorMessage: text }, also);
  return { view: await loadPaymentView(s.db, id), successful: false, failure: { code, text }, redirectUrl: null };
}

async function write(db: Tx, columns: Columns<Payment>, customer: Upsert<Customer> | undefined): Promise<void> {
  if (customer) await insertRowUnder<Payment, Customer>(db, customer, 'customerId', 'Payment', columns, { row: ['id'], parent: ['id'] });
  else await insertRow<Payment>(db, 'Payment', columns, ['id']);
}
