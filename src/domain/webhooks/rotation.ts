// Rotating an address's signing secret (signing.ts) with an overlap: the current secret becomes the
// previous one and keeps signing beside the new one for a while, so a receiver can switch secrets
// without refusing a notification in between.
import { z } from 'zod';
import type { WebhookAddress, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { parseInput } from '../validation.ts';
import { findAddress } from './addresses.ts';
import { newSigningSecret } from './signing.ts';

/** How long the previous secret still signs after a rotation, when the caller does not say. */
export const DEFAULT_OVERLAP_HOURS = 24;
/** 0: the previous secret stops at once; a week at most, so a leaked secret cannot linger. */
export const MAX_OVERLAP_HOURS = 168;

const rotateInput = z.object({
  overlapHours: z
    .number({ error: 'webhook_overlap_range' })
    .int({ error: 'webhook_overlap_range' })
    .min(0, { error: 'webhook_overlap_range' })
    .max(MAX_OVERLAP_HOURS, { error: 'webhook_overlap_range' })
    .nullish(),
});

export interface RotatedSecret {
  address: WebhookAddress;
  /** The new secret in plain text: returned only here, never again. */
  signingSecret: string;
}

/**
 * A new signing secret for the address. The current one becomes the previous one and keeps
 * signing for `overlapHours` (default 24, 0 to 168) by the gateway clock; a previous one still in
 * its overlap is dropped (only the two newest sign). An address without a secret gets its first.
 */
export async function rotateWebhookSecret(s: Services, workspace: Workspace, id: string, raw: unknown = {}): Promise<RotatedSecret> {
  const { overlapHours } = parseInput(rotateInput, raw ?? {});
  const found = await findAddress(s, workspace, id);
  const now = s.clock.now();
  const hours = overlapHours ?? DEFAULT_OVERLAP_HOURS;
  const { signingSecret, signingSecretEncrypted } = newSigningSecret(s.masterKey);
  const address = await s.db.$transaction(async (tx) => {
    // Two rotations at once: the second sees the first's secret as the one it replaces.
    const [current] = await tx.$queryRaw<Array<{ signingSecretEncrypted: string | null }>>`
      SELECT "signingSecretEncrypted" FROM "WebhookAddress" WHERE id = ${found.id}::uuid FOR UPDATE`;
    const previous = current?.signingSecretEncrypted && hours > 0 ? current.signingSecretEncrypted : null;
    return tx.webhookAddress.update({
      where: { id: found.id },
      data: {
        signingSecretEncrypted,
        previousSecretEncrypted: previous,
        previousSecretUntil: previous ? new Date(now.getTime() + hours * 3_600_000) : null,
        secretRotatedAt: now,
      },
    });
  });
  return { address, signingSecret };
}

