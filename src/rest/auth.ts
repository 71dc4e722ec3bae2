// HMAC authentication of REST calls (spec: Authentication). The signature is checked over the
// raw body bytes before anything parses them; comparisons are constant-time.
import type { IncomingHttpHeaders } from 'node:http';
import type { Workspace } from '../generated/prisma/client.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../domain/clock.ts';
import type { MessageCode } from '../domain/messages.ts';
import { decryptSecret } from '../domain/secrets.ts';
import { isTimestampFresh, safeEqualHex, signBody, signTimestamped } from '../domain/signatures.ts';

export type AuthOutcome =
  | { ok: true; workspace: Workspace; secret: string }
  | { ok: false; status: 401 | 403; code: MessageCode; secret?: string };

export interface AuthRequest {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  team: string;
  path: string;
  requireTimestamp: boolean;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function authenticate(db: Db, masterKey: Buffer, clock: Clock, req: AuthRequest): Promise<AuthOutcome> {
  const apiKey = header(req.headers, 'x-api-key');
  if (!apiKey) return { ok: false, status: 401, code: 'auth_missing_key' };
  const credential = await db.apiCredential.findUnique({ where: { apiKey }, include: { workspace: true } });
  // A key of another workspace than the path's {team} is as unknown as a made-up key.
  if (!credential || credential.revokedAt || credential.workspace.slug !== req.team) {
    return { ok: false, status: 401, code: 'auth_invalid_key' };
  }
  const secret = decryptSecret(masterKey, credential.secretEncrypted);
  const signature = header(req.headers, 'x-signature');
  if (!signature) return { ok: false, status: 401, code: 'auth_missing_signature', secret };
  const timestamp = header(req.headers, 'x-timestamp');
  if (timestamp !== undefined || req.requireTimestamp) {
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    if (timestamp === undefined || !isTimestampFresh(timestamp, nowSeconds)) {
      return { ok: false, status: 401, code: 'auth_stale_timestamp', secret };
    }
    if (!safeEqualHex(signTimestamped(secret, timestamp, 'POST', req.path, req.rawBody), signature)) {
      return { ok: false, status: 401, code: 'auth_invalid_signature', secret };
    }
  } else if (!safeEqualHex(signBody(secret, req.rawBody), signature)) {
    return { ok: false, status: 401, code: 'auth_invalid_signature', secret };
  }
  if (!credential.workspace.active) return { ok: false, status: 403, code: 'workspace_inactive', secret };
  return { ok: true, workspace: credential.workspace, secret };
}
