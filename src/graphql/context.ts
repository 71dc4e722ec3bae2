// Who is asking. Merchants (REST, already authenticated by HMAC), dashboard tokens and people
// signed in to the dashboard act for one workspace; support-staff tokens read every workspace and write nothing.
import type { AccessRole, Workspace } from '../generated/prisma/client.ts';
import type { Services } from '../domain/services.ts';
import type { Language } from '../domain/messages.ts';
import type { LiveEvents } from './live.ts';

/** The bearer token behind a dashboard or support viewer: its role decides, its id and name are audited. */
export interface TokenIdentity {
  id: string;
  name: string;
  role: AccessRole;
}

/** A signed-in person behind a dashboard viewer: audited with the session and the address used. */
export interface PersonIdentity {
  id: string;
  email: string;
  sessionId: string;
  address: string;
  /** Whether the person has two-factor on, and when this session last gave a code (null: never). */
  twoFactor: boolean;
  secondFactorAt: Date | null;
}

export type Viewer =
  | { kind: 'merchant'; workspace: Workspace }
  /** A dashboard token, or a person's session (`person` set; `token` then names the person and their role). */
  | { kind: 'dashboard'; workspace: Workspace; token: TokenIdentity; person?: PersonIdentity }
  | { kind: 'support'; token: TokenIdentity }
  | { kind: 'anonymous' };

export interface GraphQLContext {
  services: Services;
  /** Present where subscriptions are served (HTTP/SSE and WebSocket); not on the REST path. */
  live?: LiveEvents;
  viewer: Viewer;
  lang: Language;
  /** The client's address (HTTP and WebSocket), for entries of callers without a sign-in. */
  address?: string;
}
