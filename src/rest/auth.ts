// HMAC authentication of REST calls (contract: Authentication), and the call's admission: its
// credential still live, its workspace active and within its request limits (429). The signature
// is checked over the raw body bytes before anything parses them; comparisons are constant-time.
import type { IncomingHttpHeaders } from 'node:http';
import type { Workspace } from '../generated/prisma/client.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../domain/clock.ts';
import type { MessageCode } from '../domain/messages.ts';
import { cachedSecret } from '../domain/secrets.ts';
import { isTimestampFresh, safeEqualHex, signBody, signTimestamped } from '../domain/signatures.ts';
import { admit } from './admission.ts';
import type { AdmissionMemory } from './admission-memory.ts';
import { cachedCredential, forgetCredential, loadCredential, type KnownCredential } from './credentials.ts';
import type { RateLimitSettings } from './rate-limit.ts';

export type AuthOutcome =
  | { ok: true; workspace: Workspace; secret: string }
  | { ok: false; status: 401 | 403; code: MessageCode; params?: Record<string, string | number>; secret?: string }
  | { ok: false; status: 429; code: 'rate_limited'; secret: string; retryAfter: number };

export interface AuthRequest {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  team: string;
  path: string;
  operation: string;
  requireTimestamp: boolean;
}

export interface AuthSetup {
  db: Db;
  masterKey: Buffer;
  clock: Clock;
  /** Null: a gateway built without request limits. */
  limits: RateLimitSettings | null;
  /** The process's remembered admissions; null: every call reads its admission. */
  memory: AdmissionMemory | null;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function authenticate(setup: AuthSetup, req: AuthRequest): Promise<AuthOutcome> {
  const apiKey = header(req.headers, 'x-api-key');
  if (!apiKey) return { ok: false, status: 401, code: 'auth_missing_key' };
  const cached = cachedCredential(setup.db, apiKey);
  if (cached) {
    const outcome = await check(setup, req, cached);
    if (outcome.ok || outcome.status === 429) return outcome;
    // A refusal decided on a remembered credential is decided again on a fresh read, so that the
    // answer is the one an uncached gateway gives (say, a revoked key with a bad signature).
    forgetCredential(setup.db, apiKey);
  }
  const fresh = await loadCredential(setup.db, apiKey);
  if (!fresh) return { ok: false, status: 401, code: 'auth_invalid_key' };
  return check(setup, req, fresh);
}

async function check(setup: AuthSetup, req: AuthRequest, credential: KnownCredential): Promise<AuthOutcome> {
  // A key of another workspace than the path's {team} is as unknown as a made-up key.
  if (credential.slug !== req.team) return { ok: false, status: 401, code: 'auth_invalid_key' };
  const secret = cachedSecret(setup.masterKey, credential.id, credential.secretEncrypted);
  const signatureProblem = verifySignature(setup.clock, req, secret);
  if (signatureProblem) return { ok: false, status: 401, ...signatureProblem, secret };
  const admission = await admit(setup.db, credential.id, req.team, req.operation, setup.limits, setup.memory);
  switch (admission.kind) {
    case 'unknown':
      return { ok: false, status: 401, code: 'auth_invalid_key' };
    case 'inactive':
      return { ok: false, status: 403, code: 'workspace_inactive', secret };
    case 'limited':
      return { ok: false, status: 429, code: 'rate_limited', secret, retryAfter: admission.retryAfter };
    case 'admitted':
      return { ok: true, workspace: admission.workspace, secret };
  }
}

/**
 * Null when the signature holds; else the refusal, whose message names the accepted forms and the
 * string the gateway signed (the body by its length only: it may hold card data).
 */
function verifySignature(clock: Clock, req: AuthRequest, secret: string): { code: MessageCode; params: Record<string, string | number> } | null {
  const params = { path: req.path, bytes: req.rawBody.length };
  const signature = header(req.headers, 'x-signature');
  if (!signature) return { code: 'auth_missing_signature', params };
  const timestamp = header(req.headers, 'x-timestamp');
  if (timestamp === undefined && req.requireTimestamp) return { code: 'auth_timestamp_required', params };
  if (timestamp !== undefined) {
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    if (!isTimestampFresh(timestamp, nowSeconds)) return { code: 'auth_stale_timestamp', params };
    // A fresh timestamp is digits only (isTimestampFresh), so it can be shown as it came.
    return safeEqualHex(signTimestamped(secret, timestamp, 'POST', req.path, req.rawBody), signature) ? null : { code: 'auth_invalid_signature_timestamp', params: { ...params, timestamp } };
  }
  return safeEqualHex(signBody(secret, req.rawBody), signature) ? null : { code: 'auth_invalid_signature', params };
}
