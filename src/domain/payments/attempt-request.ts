// What a payment attempt is asked and what it answers (attempt.ts runs it): the owner's request,
// with its card, price and claim, and the result the owner turns into its own answer.
import type { Customer, Workspace } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import type { Upsert } from '../../db/rows.ts';
import type { Currency } from '../money.ts';
import type { BasketItem, Shopper } from '../../providers/types.ts';
import type { Path } from '../errors.ts';
import type { CardSource } from './card-source.ts';
import type { PaymentSource } from './owners.ts';
import type { PaymentView } from './view.ts';

export type Security = 'secure' | 'regular';

/** The owner's columns of the payment row, decided inside the write transaction. */
export interface OwnerColumns {
  customerId?: string | null;
  orderId?: string;
  linkPaymentId?: string;
  subscriptionId?: string;
  periodId?: string;
}

/** What a claim returns: the columns, and the customer row when the claim wrote or read it. */
export type Claimed = OwnerColumns & { customer?: Customer };

export interface AttemptRequest {
  workspace: Workspace;
  source: PaymentSource;
  security: Security;
  /** Null for owners outside a channel (payment links). */
  channelId: string | null;
  channelReference: string | null;
  /** What the owner asks for, in `currency`. */
  amount: bigint;
  /** Sold amount without installment surcharge (given pricing only); default `amount`. */
  baseAmount?: bigint | null;
  currency: Currency;
  installmentNumber: number;
  /**
   * `given`: the amount already includes any installment surcharge (the merchant priced it, API);
   * `quoted`: the account's installment quote prices it (hosted pages show and charge that).
   */
  pricing: 'given' | 'quoted';
  card: CardSource;
  /** payment_provider_token given (or stored on the owner record), if any. */
  accountToken: string | null;
  paths: { account: Path; currency: Path; installmentNumber: Path; savedCard?: Path; shouldSave?: Path };
  callbackUrl: string | null;
  ip: string | null;
  /** What is known of the shopper, for the provider's fraud checks (the IP is added here). */
  shopper?: Shopper;
  /** The items bought (an order's, a link's); absent: one item of the whole amount. */
  basket?: BasketItem[];
  shouldSave?: boolean;
  /** The customer the payment is for, created or updated in the payment row's own statement. */
  customer?: Upsert<Customer>;
  /**
   * Runs in a transaction with the payment row's write, before it: the owner's locks and checks
   * (an order still open, no other attempt in flight) and its columns (customer, order...).
   * Owners without any (the API) leave it out, and the row is written without a transaction.
   */
  claim?(tx: Tx, at: Date): Promise<Claimed>;
  /** What the risk decision reads besides (risk/judge.ts): the page or link paid on, a renewal the merchant scheduled. */
  risk?: { target?: string; renewal?: boolean };
}

export interface AttemptResult {
  view: PaymentView;
  successful: boolean;
  /** Our message code or the provider's own text, when not successful. */
  failure: { code: string; text: string } | null;
  redirectUrl: string | null;
}
