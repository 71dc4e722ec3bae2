import type { Channel } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import { ValidationError, type Path } from './errors.ts';

/** The workspace's channel by token; another workspace's channel is as unknown as a made-up one. */
export async function requireChannel(db: Tx, workspaceId: string, token: string, path: Path): Promise<Channel> {
  const channel = await db.channel.findFirst({ where: { id: token, workspaceId } });
  if (!channel) throw ValidationError.single(path, 'channel_not_found');
  return channel;
}
