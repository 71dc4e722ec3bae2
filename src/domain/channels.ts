import type { Channel } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import { ValidationError, type Path } from './errors.ts';

/**
 * Channels seen by this process, per database client. A channel row never changes and is never
 * deleted on its own (nothing in the gateway updates or removes one), so a channel found once is
 * found forever: each payment, order or subscription of a known channel saves a round trip.
 * Only found channels are remembered; an unknown token is looked up every time.
 */
const known = new WeakMap<Tx, Map<string, Channel>>();
const CACHE_SIZE = 10_000;

/** The workspace's channel by token; another workspace's channel is as unknown as a made-up one. */
export async function requireChannel(db: Tx, workspaceId: string, token: string, path: Path): Promise<Channel> {
  let cache = known.get(db);
  if (!cache) known.set(db, (cache = new Map()));
  const cached = cache.get(token);
  if (cached) {
    if (cached.workspaceId !== workspaceId) throw ValidationError.single(path, 'channel_not_found');
    return cached;
  }
  const channel = await db.channel.findFirst({ where: { id: token } });
  if (!channel || channel.workspaceId !== workspaceId) throw ValidationError.single(path, 'channel_not_found');
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(token, channel);
  return channel;
}
