// Who is asking. Merchants (REST, already authenticated by HMAC) and dashboard tokens act for one
// workspace; support-staff tokens read every workspace and write nothing.
import type { Workspace } from '../generated/prisma/client.ts';
import type { Services } from '../domain/services.ts';
import type { Language } from '../domain/messages.ts';
import type { LiveEvents } from './live.ts';

export type Viewer =
  | { kind: 'merchant' | 'dashboard'; workspace: Workspace }
  | { kind: 'support' }
  | { kind: 'anonymous' };

export interface GraphQLContext {
  services: Services;
  /** Present where subscriptions are served (HTTP/SSE and WebSocket); not on the REST path. */
  live?: LiveEvents;
  viewer: Viewer;
  lang: Language;
}
