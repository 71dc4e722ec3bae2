// What a risk decision is and what a payment keeps of it, shared by the decision (judge.ts), the
// lists and rules it reads, and the readers of stored attempts (GraphQL, the timeline, the overview).
import type { PaymentSource } from '../payments/owners.ts';

/** The PostgreSQL channel that tells every process to forget what it remembers of a workspace's counts (memory.ts). */
export const RISK_CHANNEL = 'gateway_risk';

/** Where attempts are counted: the shopper's address, the page or link, the workspace. */
export type SourceKind = 'ip' | 'target' | 'workspace';

/** One source of an attempt and the thresholds that apply to it (0: that rule is off). */
export interface GuardSource {
  kind: SourceKind;
  key: string;
  /** Distinct cards, this one included, that block the attempt / that require 3-D Secure. */
  cards: number;
  cardsFor3ds: number;
  /** Payments that reached a bank and failed within the window that block the next attempt. */
  declines: number;
}

/** What one source's counts were when the attempt was judged, and which of its rules fired. */
export interface SourceFigures {
  kind: SourceKind;
  /** Distinct cards within the window, this attempt's included. */
  cards: number;
  declines: number;
  /** A rule of this source blocked an attempt within the cool-down. */
  coolingDown: boolean;
  cardsFired: boolean;
  declinesFired: boolean;
  threeDsFired: boolean;
  /** Set when the figures are an earlier count's, remembered by the process (memory.ts): how old that count was, ms. */
  countAgeMs?: number;
}

export type RiskOutcome = 'allow' | 'block' | 'require_3ds';

/** The failed payment's `error_code` for each refusal. */
export type RiskCode = 'invalid_card_number' | 'blocked' | '3ds_required';
/** Every refusal's code, for reading the attempts the decision stopped. */
export const STOPPED_CODES: readonly RiskCode[] = ['blocked', '3ds_required', 'invalid_card_number'];

export type FiredRule = {
  /**
   * `luhn`; `<source>_<what>`: ip_cards, ip_cards_3ds, ip_declines, target_declines,
   * workspace_declines, <source>_cooldown; `block_list_<kind>`, `allow_list_<kind>`; `rule:<name>`
   * for the merchant's first matching rule.
   */
  rule: string;
  outcome: RiskOutcome;
  /** The figure the rule read and the threshold it met (null for the Luhn check and cool-downs). */
  saw: number | null;
  threshold: number | null;
};

/** What the payment keeps (`Payment.risk`), in GraphQL as `Payment.risk`; a type, not an interface, so it is a JSON value. */
export type RiskRecord = {
  outcome: RiskOutcome;
  /** Who made the attempt: the payment's source, or `renewal` for a renewal the merchant scheduled. */
  source: PaymentSource | 'renewal';
  /** Whether the card-testing guard counted this attempt (off for the workspace, or not a shopper's). */
  guarded: boolean;
  rules: FiredRule[];
  /** The card's fingerprint (fingerprint.ts), so that a list entry can name this payment's card; not shown. */
  fingerprint?: string;
  /** The country of the shopper's address (ip-country.ts), when known: shown, and read by the rule tester. */
  ipCountry?: string;
  /** The country that issued the card (bin-source.ts, issuerCountry), when known: read by the rule tester. */
  cardCountry?: string;
  /**
   * Each source's counts; `cards` is not counted for the workspace (null). `countAgeMs` only on a
   * source whose figures were not counted for this attempt but remembered from an earlier count of
   * the same process, that many milliseconds old (memory.ts).
   */
  figures: Array<{ kind: SourceKind; cards: number | null; declines: number; coolingDown: boolean; countAgeMs?: number }>;
};
