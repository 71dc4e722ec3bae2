// A workspace's block and allow lists: entries by BIN prefix, card (the fingerprint of a payment's
// card, risk/fingerprint.ts), address or CIDR range, e-mail address or e-mail domain, or the
// country of the shopper's address (ISO 3166-1 alpha-2, from the offline table in ip-country.ts). They are read
// by the decision's own statement (guard.ts) when the guard counts, or alone when it is off and
// the workspace has entries; an allow entry that matches wins over block entries and guard rules.
import { isIP } from 'node:net';
import { z } from 'zod';
import { Prisma, type RiskListEntry, type Workspace } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/raw.ts';
import type { Services } from '../services.ts';
import { parseInput, text } from '../validation.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { RiskRecord } from './types.ts';

export const LIST_KINDS = ['bin', 'card', 'ip', 'email', 'domain', 'country'] as const;
export type ListKind = (typeof LIST_KINDS)[number];
export type ListName = 'block' | 'allow';

/** An entry an attempt matched. */
export interface ListMatch {
  list: ListName;
  kind: ListKind;
}

/** What of an attempt the lists are matched against (each may be unknown). */
export interface ListedFacts {
  digits: string | null;
  fingerprint: string | null;
  ip: string | null;
  email: string | null;
  /** The country of the shopper's address, when the offline table knows it. */
  country: string | null;
}

/** A scalar subquery: the entries of the workspace the attempt matches, as JSON `[{list, kind}]`. */
export function listMatchesSql(workspaceId: string, facts: ListedFacts): Prisma.Sql {
  const email = facts.email?.toLowerCase() ?? null;
  const domain = email?.split('@')[1] ?? null;
  const ip = facts.ip && isIP(facts.ip) ? facts.ip : null;
  return Prisma.sql`(SELECT coalesce(json_agg(json_build_object('list', e.list, 'kind', e.kind)), '[]'::json) FROM "RiskListEntry" e
    WHERE e."workspaceId" = ${workspaceId}::uuid AND (
      (e.kind = 'bin' AND ${facts.digits}::text LIKE e.value || '%')
      OR (e.kind = 'card' AND e.value = ${facts.fingerprint}::text)
      OR (e.kind = 'ip' AND ${ip}::inet <<= e.value::cidr)
      OR (e.kind = 'email' AND e.value = ${email}::text)
      OR (e.kind = 'domain' AND e.value = ${domain}::text)
      OR (e.kind = 'country' AND e.value = ${facts.country}::text)))`;
}

/** The lists alone, for a workspace whose guard is off. */
export async function listMatches(db: Db, workspaceId: string, facts: ListedFacts): Promise<ListMatch[]> {
  const [row] = await queryRows<{ listed: ListMatch[] }>(db, Prisma.sql`SELECT ${listMatchesSql(workspaceId, facts)} AS listed`);
  return row?.listed ?? [];
}

const CIDR = /^([0-9a-fA-F:.]+)(?:\/(\d{1,3}))?$/;

const entryInput = z
  .object({
    list: z.enum(['block', 'allow'], { error: 'risk_list_invalid' }),
    kind: z.enum(LIST_KINDS, { error: 'risk_list_kind_invalid' }),
    value: text().min(1, { error: 'required' }).max(320, { error: 'too_long' }),
    note: text().max(255, { error: 'too_long' }).nullish(),
  })
  .strict();

/** Adds an entry (an existing one is kept as it is); `card` takes a payment token and lists that payment's card. */
export async function addListEntry(s: Pick<Services, 'db'>, workspace: Workspace, raw: unknown): Promise<RiskListEntry> {
  const input = parseInput(entryInput, raw);
  const value = await normalised(s.db, workspace, input.kind, input.value);
  return s.db.$transaction(async (tx) => {
    const where = { workspaceId_list_kind_value: { workspaceId: workspace.id, list: input.list, kind: input.kind, value } };
    const existing = await tx.riskListEntry.findUnique({ where });
    if (existing) return existing;
    await tx.workspace.update({ where: { id: workspace.id }, data: { riskListSize: { increment: 1 } } });
    return tx.riskListEntry.create({ data: { workspaceId: workspace.id, list: input.list, kind: input.kind, value, note: input.note ?? null } });
  });
}

export async function removeListEntry(s: Pick<Services, 'db'>, workspace: Workspace, id: string): Promise<void> {
  await s.db.$transaction(async (tx) => {
    const { count } = await tx.riskListEntry.deleteMany({ where: { id, workspaceId: workspace.id } });
    if (count === 0) throw NotFoundError.single(['id'], 'risk_list_entry_not_found');
    await tx.workspace.update({ where: { id: workspace.id }, data: { riskListSize: { decrement: 1 } } });
  });
}

async function normalised(db: Db, workspace: Workspace, kind: ListKind, value: string): Promise<string> {
  const path = ['value'];
  switch (kind) {
    case 'bin':
      if (!/^\d{6,8}$/.test(value)) throw ValidationError.single(path, 'risk_list_bin');
      return value;
    case 'ip': {
      const m = CIDR.exec(value);
      const family = m ? isIP(m[1]!) : 0;
      if (!m || family === 0 || (m[2] !== undefined && Number(m[2]) > (family === 4 ? 32 : 128))) throw ValidationError.single(path, 'risk_list_ip');
      // The network PostgreSQL would store (host bits cleared), so one range is one entry.
      const [row] = await queryRows<{ net: string }>(db, Prisma.sql`SELECT network(${value}::inet)::text AS net`);
      return row!.net;
    }
    case 'email':
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw ValidationError.single(path, 'risk_list_email');
      return value.toLowerCase();
    case 'domain':
      if (!/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(value)) throw ValidationError.single(path, 'risk_list_domain');
      return value.toLowerCase();
    case 'country':
      if (!/^[a-z]{2}$/i.test(value)) throw ValidationError.single(path, 'risk_list_country');
      return value.toUpperCase();
    case 'card': {
      const payment = /^[0-9a-f-]{36}$/i.test(value) ? await db.payment.findFirst({ where: { id: value, workspaceId: workspace.id }, select: { risk: true } }) : null;
      const fingerprint = (payment?.risk as RiskRecord | null)?.fingerprint;
      if (!fingerprint) throw ValidationError.single(path, 'risk_list_card');
      return fingerprint;
    }
  }
}
