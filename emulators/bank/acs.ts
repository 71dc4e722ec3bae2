// The 3-D Secure bookkeeping every bank emulator keeps alike: the gate checks the merchant's return
// addresses, keeps the posted form (less the card) to echo in the callback, and opens a session
// (one challenge) under a random token; the ACS pages live under /_emulator/acs/<token> (the card
// page of a 3D Host model) and /_emulator/acs/<token>/complete (Approve / Decline), served by
// ./server.ts; a challenge is answered once, and the authentication it gives is used once.
import { randomUUID } from 'node:crypto';

/** A page of the gate or the ACS to send. */
export interface BankPage {
  status: number;
  html: string;
}

/** What every session carries besides the bank's own fields. */
export interface AcsSession {
  token: string;
  /** The callback was posted (an ACS page answers once). */
  answered: boolean;
  /** The 3D model's sale may use the authentication once. */
  used: boolean;
}

/** Opens a session under a fresh token, not yet answered nor used, and keeps it. */
export function openSession<S extends AcsSession>(sessions: Map<string, S>, fields: Omit<S, keyof AcsSession>): S {
  const session = { ...fields, token: randomUUID(), answered: false, used: false } as S;
  sessions.set(session.token, session);
  return session;
}

/** The session a challenge's answer is for: undefined when it is unknown or already answered. */
export function openChallenge<S extends AcsSession>(sessions: Map<string, S>, token: string): S | undefined {
  const session = sessions.get(token);
  return session && !session.answered ? session : undefined;
}

/** The ACS page a session's challenge is answered on (its card page, without `step`). */
export function acsUrl(baseUrl: string, token: string, step?: 'complete'): string {
  return `${baseUrl}/_emulator/acs/${token}${step ? `/${step}` : ''}`;
}

/** The gate's form as posted, less the card's fields (and any other left out): echoed in the callback. */
export function echoOf(form: URLSearchParams, leftOut: ReadonlySet<string>): Record<string, string> {
  const echo: Record<string, string> = {};
  for (const [name, value] of form) if (!leftOut.has(name)) echo[name] = value;
  return echo;
}

/** A merchant's return address the gate will post back to: http(s) only. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
