// A workspace's clock: the gateway's clock plus the workspace's test-clock offset (zero unless a
// test-mode workspace moved its test clock forward). Every subscription rule, every event's
// created_at and the test clock itself read time through here, so "now" means one thing per
// workspace (docs/decisions.md, "Test clocks").
import type { Workspace } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import type { Services } from './services.ts';

type ClockOwner = Pick<Workspace, 'testClockOffsetMs'>;

/** The workspace's time at the gateway instant `at`. */
export function workspaceTime(workspace: ClockOwner, at: Date): Date {
  return new Date(at.getTime() + Number(workspace.testClockOffsetMs));
}

/** Now, as the workspace sees it. Pass a freshly read workspace: the offset moves with the test clock. */
export function workspaceNow(s: Pick<Services, 'clock'>, workspace: ClockOwner): Date {
  return workspaceTime(workspace, s.clock.now());
}

/** The offset as stored now, for code that holds only the workspace's id (settlements, events). */
export async function clockOf(tx: Tx, workspaceId: string): Promise<Pick<Workspace, 'testClockOffsetMs' | 'timeZone'>> {
  return tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { testClockOffsetMs: true, timeZone: true } });
}
