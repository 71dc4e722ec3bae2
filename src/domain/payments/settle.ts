// What happens when a payment reaches its final state: status columns, then its owner's part
// (API payments send transaction.*, orders order.paid, ...), atomically.
import { Prisma, type Payment } from '../../generated/prisma/client.ts';
import type { Db, Tx } from '../../db/client.ts';
import { GatheredWrites } from '../../db/gathered-writes.ts';
import { commitAfterBank, untilWritten } from '../../db/busy.ts';
import { updateRowSql, updateRowsSql, type Columns } from '../../db/rows.ts';
import { queryRows } from '../../db/raw.ts';
import { changeWithEvents, eventInput, recordEvent, type EventInput } from '../events.ts';
import type { Services } from '../services.ts';
import { ownerOf, type PaymentSource } from './owners.ts';
import { savePaymentCard } from '../saved-cards.ts';
import { VIEW_ROW_COLUMNS, type ViewRow } from './view.ts';
import type { Declined, ProviderFailure, ProviderSaid } from '../../providers/types.ts';

export type Final =
  | { status: 'successful'; providerReference: string }
  | ({ status: 'failed'; errorCode: string; errorMessage: string } & ProviderSaid)
  | { status: 'unresolved'; errorCode: string; errorMessage: string };

/** A provider's refusal as a settlement: the gateway's code, and the provider's own words kept for support. */
export function refusal(res: Declined | ProviderFailure): Final {
  return { status: 'failed', errorCode: res.code, errorMessage: res.message, providerCode: res.providerCode, providerMessage: res.providerMessage };
}

function finalColumns(final: Final, at: Date): Columns<Payment> {
  // A payment settled successful after being unresolved drops the timeout it carried as its error.
  if (final.status === 'successful') {
    return { status: 'successful', paymentStatus: 'paid', providerReference: final.providerReference, errorCode: null, errorMessage: null, completedAt: at, threeDsToken: null };
  }
  const said = final.status === 'failed' ? { providerErrorCode: final.providerCode ?? null, providerErrorMessage: final.providerMessage ?? null } : {};
  return { status: final.status, errorCode: final.errorCode, errorMessage: final.errorMessage, ...said, completedAt: at, threeDsToken: null };
}

/**
 * The states a payment is settled from. A settlement is written once: one retried after its COMMIT
 * landed (the connection cut before the reply, then `commitAfterBank` / `untilWritten` write again)
 * finds the payment settled and changes nothing, so its owner's part and its event are not repeated.
 */
const SETTLEABLE = ['started', 'unresolved'] as const;

export async function settlePayment(tx: Tx, s: Pick<Services, 'owners' | 'riskMemory'>, paymentId: string, final: Final, at: Date, also: Columns<Payment> = {}): Promise<Payment> {
  const [settled] = await queryRows<Payment>(tx, updateRowSql<Payment>('Payment', paymentId, { ...finalColumns(final, at), ...also }, undefined, SETTLEABLE));
  // Already settled (by this write's first COMMIT, or by another process): what it settled to stands.
  if (!settled) return tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
  declined(s, settled);
  let payment = settled;
  // card.should_save on a 3D payment: the card tokenised at the start is saved now, before the
  // owner runs, so an owner can rely on storedCardId (a subscription makes it the default card).
  if (final.status === 'successful' && payment.pendingCardReference) {
    await savePaymentCard(tx, payment.id, { reference: payment.pendingCardReference, accountId: payment.pendingCardAccountId ?? payment.paymentAccountId }, at);
    payment = await tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
  }
  // No notification for a payment whose provider did not answer (contract: Events).
  if (final.status === 'unresolved') return payment;
  const owner = ownerOf(s.owners, payment);
  if (owner.settledEvent) await recordEvent(tx, owner.settledEvent({ ...payment, status: final.status }), at);
  else await owner.settled(tx, payment, at);
  return payment;
}

/**
 * Settling what the bank just answered for a payment without a card to save (that is done after,
 * or on the 3D page). When its owner's part is an event only (API payments) or there is none
 * (unresolved), the status columns, the event and its notifications are written without a
 * transaction, in one statement gathered with the settlements of other payments that wait meanwhile
 * (db/gathered-writes.ts); otherwise the owner's part runs in a transaction. Waits out a busy
 * database either way: the bank has acted. Returns what the attempt's answer shows of the row
 * (view.ts). `also`: more of the row's columns written with the settlement (the risk decision of
 * an attempt counted with its row).
 */
export async function settleAfterBank(s: Services, payment: { id: string; workspaceId: string; source: PaymentSource }, final: Final, also: Columns<Payment> = {}): Promise<ViewRow> {
  const at = s.clock.now();
  const owner = ownerOf(s.owners, payment);
  let event: EventInput | null = null;
  // No notification for a payment whose provider did not answer (contract: Events).
  if (final.status !== 'unresolved') {
    if (!owner.settledEvent) return commitAfterBank(s.db, (tx) => settlePayment(tx, s, payment.id, final, at, also));
    event = eventInput(owner.settledEvent({ ...payment, status: final.status }), at, payment.id);
  }
  const settlement: Settlement = { paymentId: payment.id, columns: { ...finalColumns(final, at), ...also }, event };
  // The event is written only when the change is (events.ts), so a retry that finds the payment settled writes neither.
  const written = await untilWritten(() => gatheredSettlements(s.db).add(settlement));
  if (written) declined(s, { workspaceId: payment.workspaceId, status: final.status });
  return written ?? settledRow(s, payment.id);
}

/** A settlement waiting to be written with others: its row's change and its event, if any. */
interface Settlement {
  paymentId: string;
  columns: Columns<Payment>;
  event: EventInput | null;
}

/** Each database's gathered settlements: one statement in flight at a time, the others gather. */
const gathered = new WeakMap<Db, GatheredWrites<Settlement, ViewRow>>();

function gatheredSettlements(db: Db): GatheredWrites<Settlement, ViewRow> {
  let writes = gathered.get(db);
  if (!writes) gathered.set(db, (writes = new GatheredWrites((items) => writeSettlements(db, items), (item) => item.paymentId)));
  return writes;
}

/**
 * One settlement is the UPDATE of one row by its id, a prepared statement like any other. Several
 * are one UPDATE joined to their values, sent unnamed so that PostgreSQL plans it each time for the
 * table as it is: a plan kept from when the table was small scans it whole (a prepared generic plan
 * made at a few dozen payments took 8.7 ms a settlement at 15,000, instead of 0.2), and planning
 * costs little beside a statement that carries several.
 */
async function writeSettlements(db: Db, items: readonly Settlement[]): Promise<Map<string, ViewRow>> {
  const [one] = items;
  const change =
    items.length === 1 && one
      ? updateRowSql<Payment>('Payment', one.paymentId, one.columns, VIEW_ROW_COLUMNS, SETTLEABLE)
      : updateRowsSql<Payment>('Payment', items.map((i) => ({ id: i.paymentId, values: i.columns })), VIEW_ROW_COLUMNS, SETTLEABLE);
  const rows = await changeWithEvents<ViewRow>(db, change, items.flatMap((i) => (i.event ? [i.event] : [])), { unnamed: items.length > 1 });
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * A failed payment may be a decline the card-testing guard counts: what this process remembers of
 * its workspace's counts is dropped at once (every other process hears of a bank's refusal from
 * PostgreSQL, risk/memory.ts). Refusals that reached no bank drop it too, which costs only a count.
 */
function declined(s: Pick<Services, 'riskMemory'>, p: { workspaceId: string; status: string }): void {
  if (p.status === 'failed') s.riskMemory?.forget(p.workspaceId);
}

/** The answer's columns of a payment that was already settled when this settlement came to write. */
async function settledRow(s: Services, id: string): Promise<ViewRow> {
  const [row] = await untilWritten(() => queryRows<ViewRow>(s.db, Prisma.sql`SELECT ${Prisma.join(VIEW_ROW_COLUMNS.map((c) => Prisma.raw(`"${c}"`)))} FROM "Payment" WHERE id = ${id}::uuid`));
  if (!row) throw new Error(`settleAfterBank: no payment ${id}`);
  return row;
}
