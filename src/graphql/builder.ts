// The one Pothos builder: Prisma plugin for reads (relations planned from the selection set),
// Relay connections for every list (the Prisma plugin's `prismaConnection` pages them), our
// scalars, and the context every resolver receives.
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import RolesPlugin from './role-plugin.ts';
import type PrismaTypes from '../generated/pothos-types.ts';
import { getDatamodel } from '../generated/pothos-types.ts';
import type { GraphQLContext } from './context.ts';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  DefaultInputFieldRequiredness: false;
  // A page holds rows, never holes: `edges: [XEdge!]!`, `node: X!`.
  DefaultEdgesNullability: { list: false; items: false };
  DefaultNodeNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    /** An amount as sent by a merchant: a string (or number) checked by the domain's money rules. */
    AmountInput: { Input: string | number; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  // Roles: every mutation checked against the role table and audited (roles.ts, role-plugin.ts).
  plugins: [PrismaPlugin, RelayPlugin, RolesPlugin],
  prisma: {
    client: (ctx) => ctx.services.db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
    defaultConnectionSize: 50,
    maxConnectionSize: 200,
  },
  relay: {
    // No global `node(id)` lookups: they would bypass each list's workspace scope.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    edgesFieldOptions: { nullable: { list: false, items: false } },
    nodeFieldOptions: { nullable: false },
    firstArgOptions: { description: 'At most 200; without first or last, a page has 50' },
  },
});

builder.queryType({});
builder.mutationType({});
