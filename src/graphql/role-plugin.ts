// A Pothos plugin that wraps every field as the schema is built: each mutation is checked against
// the role table (roles.ts) before its resolver runs and is audited after it; each QUERY_ROLES
// query is refused to roles below it; each FIELD_ROLES field reads as null for roles below it.
// Being a plugin, no mutation can be added without passing here. The second factor's gates
// (second-factor.ts) are applied here too: enrolment first where a workspace requires it, and a
// fresh code before the STEP_UP mutations.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import type { GraphQLContext } from './context.ts';
import type { WorkspaceRole } from '../domain/access-tokens.ts';
import { FIELD_ROLES, fieldVisible, mutationRefusal, QUERY_ROLES, queryRefusal } from './roles.ts';
import { auditMutation } from './audit-recorder.ts';
import { enrolmentRefusal, mustEnrol, stepUpRefusal } from './second-factor.ts';

const pluginName = 'roles';
export default pluginName;

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types['Context'], object>;

export class RolesPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolver: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>): Resolver<Types> {
    if (fieldConfig.kind === 'Mutation') return guardMutation(fieldConfig.name, resolver);
    if (fieldConfig.kind === 'Query') return guardQuery(fieldConfig.name, Object.hasOwn(QUERY_ROLES, fieldConfig.name) ? QUERY_ROLES[fieldConfig.name]! : null, resolver);
    const key = `${fieldConfig.parentType}.${fieldConfig.name}`;
    const roles = Object.hasOwn(FIELD_ROLES, key) ? FIELD_ROLES[key] : undefined;
    if (!roles) return resolver;
    return (parent, args, ctx, info) => (fieldVisible(ctx as GraphQLContext, roles) && !mustEnrol((ctx as GraphQLContext).viewer) ? resolver(parent, args, ctx, info) : null);
  }
}

function guardQuery<Types extends SchemaTypes>(name: string, roles: readonly WorkspaceRole[] | null, resolver: Resolver<Types>): Resolver<Types> {
  return (parent, args, ctx, info) => {
    const refusal = enrolmentRefusal(ctx as GraphQLContext, 'Query', name) ?? (roles && queryRefusal(ctx as GraphQLContext, roles));
    if (refusal) throw refusal;
    return resolver(parent, args, ctx, info);
  };
}

function guardMutation<Types extends SchemaTypes>(name: string, resolver: Resolver<Types>): Resolver<Types> {
  return async (parent, args, context, info) => {
    const ctx = context as GraphQLContext;
    const refusal = mutationRefusal(ctx, name) ?? enrolmentRefusal(ctx, 'Mutation', name);
    if (refusal) {
      await auditMutation(ctx, name, args, 'forbidden');
      throw refusal;
    }
    const askCode = stepUpRefusal(ctx, name);
    if (askCode) {
      await auditMutation(ctx, name, args, 'code_asked');
      throw askCode;
    }
    const result: unknown = await resolver(parent, args, context, info);
    // A payload with errors was refused by the domain's rules and wrote nothing.
    const errors = (result as { errors?: unknown[] } | null)?.errors;
    if (!Array.isArray(errors) || errors.length === 0) await auditMutation(ctx, name, args, 'done');
    return result;
  };
}

SchemaBuilder.registerPlugin(pluginName, RolesPlugin);

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      roles: RolesPlugin<Types>;
    }
  }
}
