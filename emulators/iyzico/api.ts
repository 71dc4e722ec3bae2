import type { EmulatorState } from './state.ts';

/** What a route handler gets: the parsed JSON body and the emulator around it. */
export interface ApiContext {
  body: Record<string, unknown>;
  /** The query string's parameters (what a GET call sends instead of a body). */
  query: URLSearchParams;
  state: EmulatorState;
  secretKey: string;
  /** Base URL of this emulator (for the ACS page address). */
  baseUrl: string;
  /** True when a `decline` control applies to this call. */
  forceDecline: boolean;
}

/** A handler returns the fields of a success answer; the server adds status/locale/systemTime/conversationId. */
export type ApiHandler = (ctx: ApiContext) => Record<string, unknown>;

export const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export const obj = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
