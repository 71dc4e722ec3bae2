// The Prisma client on the pg driver adapter (no native query engine).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.ts';

export type Db = PrismaClient;
/** A client or an interactive transaction client: domain reads and writes accept either. */
export type Tx = Prisma.TransactionClient | PrismaClient;

export function createDb(connectionString: string, max = 10): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max }) });
}
