// The dashboard's one search box: what a typed text may be (a token, a channel reference, a
// customer's name or e-mail, a card's last four digits, an amount) and the few indexed queries that
// find the records it names, at most SEARCH_LIMIT of each kind, newest first, in one workspace (or,
// for support staff, in every workspace). Which index serves each match is written beside it
// (migration 0027_search_and_timeline).
import type { Tx } from '../db/client.ts';
import type { Customer, Order, Payment, PaymentLink, Prisma, Subscription } from '../generated/prisma/client.ts';
import { parseAmount } from './money.ts';
import { isUuid } from './validation.ts';

export const SEARCH_LIMIT = 10;
/** Longer text is refused: no record has a reference, name or e-mail this long. */
export const SEARCH_MAX_LENGTH = 200;
/** Name, e-mail and reference fragments shorter than this would match too much (and a trigram index needs 3). */
export const SEARCH_MIN_TEXT = 3;

export interface SearchHits {
  payments: Payment[];
  orders: Order[];
  subscriptions: Subscription[];
  paymentLinks: PaymentLink[];
  customers: Customer[];
}

/** What the text can stand for; each reading is tried and the results are put together. */
export interface SearchTerms {
  token: string | null;
  reference: string | null;
  lastFour: string | null;
  amount: bigint | null;
  /** Words every one of which a customer's name, e-mail or reference must contain (any case). */
  words: string[];
}

/** 12 to 19 digits, spaces allowed: a card number, searched by its last four only. */
const CARD_NUMBER = /^\d(?: ?\d){11,18}$/;

export function searchTerms(q: string): SearchTerms {
  const text = q.trim();
  if (CARD_NUMBER.test(text)) return { token: null, reference: null, lastFour: text.slice(-4), amount: null, words: [] };
  const amount = parseAmount(text);
  return {
    token: isUuid(text) ? text.toLowerCase() : null,
    reference: text && !/\s/.test(text) ? text : null,
    lastFour: /^\d{4}$/.test(text) ? text : null,
    amount: amount !== null && amount > 0n ? amount : null,
    words: text.length >= SEARCH_MIN_TEXT ? text.split(/\s+/).filter(Boolean) : [],
  };
}

/** `workspaceId` null: every workspace (support staff without a chosen workspace). */
export async function search(db: Tx, workspaceId: string | null, q: string): Promise<SearchHits> {
  const terms = searchTerms(q);
  const scope = workspaceId ? { workspaceId } : {};
  const newest = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
  const take = SEARCH_LIMIT;
  // Customers first: the payments, orders and subscriptions of the customers found are hits too.
  const customers = await db.customer.findMany({ where: { ...scope, OR: orNone(customerMatches(terms)) }, orderBy: newest, take });
  const customerIds = customers.map((c) => c.id);
  const byCustomer = customerIds.length ? [{ customerId: { in: customerIds } }] : [];
  const [payments, orders, subscriptions, paymentLinks] = await Promise.all([
    db.payment.findMany({ where: { ...scope, OR: orNone([...paymentMatches(terms), ...byCustomer]) }, orderBy: newest, take }),
    db.order.findMany({ where: { ...scope, OR: orNone([...orderMatches(terms), ...byCustomer]) }, orderBy: newest, take }),
    db.subscription.findMany({ where: { ...scope, OR: orNone([...subscriptionMatches(terms), ...byCustomer]) }, orderBy: newest, take }),
    db.paymentLink.findMany({ where: { ...scope, OR: orNone(linkMatches(terms)) }, orderBy: newest, take }),
  ]);
  return { payments, orders, subscriptions, paymentLinks, customers };
}

// An empty OR matches nothing in Prisma; written out so a reader need not know that.
const orNone = <T>(conditions: T[]): T[] => (conditions.length ? conditions : [{ id: { in: [] } } as T]);

/** The conditions whose term is present. */
const given = <Where>(...conditions: (Where | null | false | '')[]): Where[] => conditions.filter((c): c is Where => !!c);

function paymentMatches(t: SearchTerms): Prisma.PaymentWhereInput[] {
  return given<Prisma.PaymentWhereInput>(
    t.token && { id: t.token }, // primary key
    t.reference && { channelReference: t.reference }, // (workspaceId, channelReference)
    t.lastFour && { cardLastFourDigits: t.lastFour }, // (workspaceId, cardLastFourDigits)
    t.amount !== null && { amount: t.amount }, // (workspaceId, amount)
  );
}

function orderMatches(t: SearchTerms): Prisma.OrderWhereInput[] {
  return given<Prisma.OrderWhereInput>(
    t.token && { id: t.token },
    t.reference && { channelReference: t.reference }, // (workspaceId, channelReference)
    t.amount !== null && { amount: t.amount }, // (workspaceId, amount)
  );
}

function subscriptionMatches(t: SearchTerms): Prisma.SubscriptionWhereInput[] {
  return given<Prisma.SubscriptionWhereInput>(t.token && { id: t.token }, t.reference && { channelReference: t.reference });
}

function linkMatches(t: SearchTerms): Prisma.PaymentLinkWhereInput[] {
  // (workspaceId, reference): LINK12 as the API shows it.
  return given<Prisma.PaymentLinkWhereInput>(t.token && { id: t.token }, t.reference && { reference: t.reference });
}

function customerMatches(t: SearchTerms): Prisma.CustomerWhereInput[] {
  // Prisma sends `contains` as ILIKE '%…%' without escaping: a typed % or _ must stay text.
  const contains = (word: string) => ({ contains: word.replace(/[\\%_]/g, (c) => `\\${c}`), mode: 'insensitive' as const });
  // The GIN trigram index on (firstname, lastname, email, channelReference) serves ILIKE '%word%'.
  const everyWord: Prisma.CustomerWhereInput | null = t.words.length
    ? { AND: t.words.map((w) => ({ OR: [{ firstname: contains(w) }, { lastname: contains(w) }, { email: contains(w) }, { channelReference: contains(w) }] })) }
    : null;
  return given<Prisma.CustomerWhereInput>(t.token && { id: t.token }, t.reference && { channelReference: t.reference }, everyWord);
}
