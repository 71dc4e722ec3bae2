// "Send test event": a signed sample of an event kind the address gets, POSTed to it at once with
// the same headers and signatures as a real delivery, so a developer can check a receiver before
// real events arrive. The body has the contract's fields only; every record token in it is the
// nil UUID (TEST_RECORD_TOKEN), which marks it as a test: no record has it, so a retrieve call
// with it answers "not found". Nothing is stored as a notification (it is not a delivery of an
// event and is never retried); the dashboard's call is audited like any change.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { cachedSecret } from '../secrets.ts';
import { parseInput } from '../validation.ts';
import { ValidationError } from '../errors.ts';
import { contextLogger } from '../../logger.ts';
import { findAddress } from './addresses.ts';
import { eventsOfAddress } from './kinds.ts';
import { testNotificationBody } from './fanout.ts';
import { destinationAllowed } from './outbound.ts';
import { postWebhook, type AttemptResult } from './send.ts';
import { signingSecretsAt, type StoredSigningSecrets } from './signing.ts';
import { signedHeaders } from './delivery.ts';

const testInput = z.object({ event: z.string({ error: 'invalid_type' }).nullish() });

export interface TestDelivery extends AttemptResult {
  event: string;
  url: string;
  /** The JSON text sent. */
  body: string;
  sentAt: Date;
}

/** A 2xx answer that came whole within the timeout, as for a real delivery. */
export function testDelivered(r: AttemptResult): boolean {
  return r.error === null && r.httpStatus !== null && r.httpStatus >= 200 && r.httpStatus < 300;
}

const failed = (error: string): AttemptResult => ({ httpStatus: null, responseExcerpt: null, error, durationMs: 0 });

/** Sends a test of `event` (default: the first kind the address gets) to the address now, disabled or not. */
export async function sendTestEvent(s: Services, workspace: Workspace, id: string, raw: unknown = {}): Promise<TestDelivery> {
  const input = parseInput(testInput, raw ?? {});
  const address = await findAddress(s, workspace, id);
  const kinds = eventsOfAddress(workspace, address);
  const event = input.event ?? kinds[0];
  if (!event || !(kinds as string[]).includes(event)) throw ValidationError.single(['event'], 'webhook_test_event_invalid');
  const sentAt = s.clock.now();
  const body = testNotificationBody(randomUUID(), sentAt, event);
  const result = await post(s, workspace, address, body, sentAt);
  contextLogger()?.info('webhook test event', { workspace: workspace.slug, address_id: address.id, event, http_status: result.httpStatus, error: result.error, duration_ms: result.durationMs });
  return { ...result, event, url: address.url, body, sentAt };
}

async function post(s: Services, workspace: Workspace, address: StoredSigningSecrets & { url: string }, body: string, at: Date): Promise<AttemptResult> {
  if (!(await destinationAllowed(address.url, s.webhooks))) return failed('destination not allowed');
  const credential = await s.db.apiCredential.findFirst({ where: { workspaceId: workspace.id, revokedAt: null }, orderBy: { createdAt: 'desc' } });
  if (!credential) return failed('workspace has no API secret');
  const apiSecret = cachedSecret(s.masterKey, credential.id, credential.secretEncrypted);
  const headers = signedHeaders(apiSecret, signingSecretsAt(s.masterKey, address, at), at, address.url, body);
  return postWebhook(address.url, headers, body, s.webhooks);
}
