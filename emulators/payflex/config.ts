// The merchant as the emulated VakıfBank knows it, its addresses, and the money its messages carry.

export interface PayflexTerminal {
  /** The merchant number ("Üye işyeri no", HostMerchantId in the search). */
  merchantId: string;
  /** The merchant's password: every MPI, VPOS and search request carries it. */
  password: string;
  /** The terminal number, sent with sales. */
  terminalNo: string;
}

// mewebstudio/pos's test account (tests/Unit/DataMapper/RequestDataMapper/PayFlexV4PosRequestDataMapperTest.php), so its vectors apply as they are.
export const DEFAULT_PAYFLEX_TERMINAL: PayflexTerminal = {
  merchantId: '000000000111111',
  password: '3XTgER89as',
  terminalNo: 'VP999999',
};

/** VakıfBank's paths (config/pos_test.php). */
export const ENROLLMENT_PATH = '/MPIAPI/MPI_Enrollment.aspx';
export const VPOS_PATH = '/VposService/v3/Vposreq.aspx';
export const SEARCH_PATH = '/UIService/Search.aspx';

/** ISO 4217 numeric codes the emulated VPOS takes. */
export const CURRENCIES = new Set(['949', '840', '978', '826']);

/** "100.25" (two decimals, as PayFlex sends them) as minor units; null when it is not a positive amount. */
export function minorUnits(decimal: string): number | null {
  const match = /^(\d{1,12})\.(\d{2})$/.exec(decimal);
  if (!match) return null;
  const minor = Number(match[1]) * 100 + Number(match[2]);
  return minor > 0 ? minor : null;
}

/** Minor units as the bank writes them back: two decimals. */
export function decimalOf(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

/** "20260314153012": the bank's HostDate. */
export function hostDate(now: Date): string {
  return now.toISOString().replace(/\D/g, '').slice(0, 14);
}
