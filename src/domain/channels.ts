import type { Channel } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import { ValidationError, type Path } from './errors.ts';
import { processCache } from './process-cache.ts';

/**
 * Channels seen by this process, per database client. A channel row never changes and is never
 * deleted on its own (nothing in the gateway updates or removes one), so a channel found once is
 * found forever: each payment, order or subscription of a known channel saves a round trip.
 * Only found channels are remembered; an unknown token is looked up every time.
 */
const known = processCache<Channel>();

/** The workspace's channel by token; another workspace's channel is as unknown as a made-up one. */
export async function requireChannel(db: Tx, workspaceId: string, token: string, path: Path): Promise<Channel> {
  const cached = known.get(db, token);
  if (cached) {
    if (cached.workspaceId !== workspaceId) throw ValidationError.single(path, 'channel_not_found');
    return cached;
  }
  const channel = await db.channel.findFirst({ where: { id: token } });
  if (!channel || channel.workspaceId !== workspaceId) throw ValidationError.single(path, 'channel_not_found');
  known.set(db, token, channel);
  return channel;
}
