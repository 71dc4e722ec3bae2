// The Prisma client on the pg driver adapter (no native query engine).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.ts';

export type Db = PrismaClient;
/** A client or an interactive transaction client: domain reads and writes accept either. */
export type Tx = Prisma.TransactionClient | PrismaClient;

/** How long one transaction may run, row-lock waits included. */
export const TX_TIMEOUT_MS = 30_000;

/** `maxWait`: how long a request's transaction may wait for a connection before it answers 503. */
export function createDb(connectionString: string, opts: { max?: number; maxWait?: number } = {}): Db {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString, max: opts.max ?? 10 }),
    // Waiting for a connection or a row lock is normal under load; only a truly saturated
    // database may fail a request (src/db/busy.ts), never a few hundred requests queueing.
    transactionOptions: { maxWait: opts.maxWait ?? 10_000, timeout: TX_TIMEOUT_MS },
  });
}
