// Who is looking at the dashboard, as every screen is given it (App.tsx builds it from WhoAmI).
import type { Can } from './kit/can.ts';

export interface Viewer {
  support: boolean;
  /** The workspace shown: the token's own, or the one support staff picked. */
  slug: string | null;
  /** The token's role: owner, developer, operator, viewer or support. */
  role: string | null;
  /** The shown workspace's time zone (IANA name): times on its screens are in it, and say so. */
  timeZone: string | null;
  /** Whether the token may call a mutation (`viewer.can('refundPayment')`), to hide what it may not use; kit/can.ts. */
  can: Can;
}
