// requireChannel remembers the channels it has found (a channel row never changes): a known
// channel costs no statement, and another workspace's channel is refused whether or not it is
// already known.
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.ts';
import { requireChannel } from '../../src/domain/channels.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { useGateway } from '../helpers/fixture.ts';

const { t, seed } = useGateway();
const PATH = ['transaction', 'channelToken'];

async function refusal(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err instanceof ValidationError ? err.issues.map((i) => [i.path.join('.'), i.code]) : err;
  }
  return 'accepted';
}

describe('requireChannel', () => {
  it('finds a workspace\'s channel once from the database and then from memory', async () => {
    const statements: string[] = [];
    const db = createDb(t.databaseUrl, { max: 1, onQuery: (sql) => statements.push(sql) });
    try {
      const a = await seed();
      const first = await requireChannel(db, a.workspaceId, a.channelToken, PATH);
      const counted = statements.length;
      const again = await requireChannel(db, a.workspaceId, a.channelToken, PATH);
      expect(again).toEqual(first);
      expect(first).toMatchObject({ id: a.channelToken, workspaceId: a.workspaceId });
      expect(statements.length).toBe(counted);
    } finally {
      await db.$disconnect();
    }
  });

  it('refuses another workspace\'s channel when it is not known yet, and when it is', async () => {
    const db = createDb(t.databaseUrl, { max: 1 });
    try {
      const a = await seed();
      const b = await seed();
      expect(await refusal(() => requireChannel(db, a.workspaceId, b.channelToken, PATH))).toEqual([['transaction.channelToken', 'channel_not_found']]);
      await requireChannel(db, b.workspaceId, b.channelToken, PATH);
      expect(await refusal(() => requireChannel(db, a.workspaceId, b.channelToken, PATH))).toEqual([['transaction.channelToken', 'channel_not_found']]);
    } finally {
      await db.$disconnect();
    }
  });
});
