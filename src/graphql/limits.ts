// How big and how expensive one GraphQL operation may be. Every limit refuses the operation with a
// 4xx before the work grows with the document: the request body is cut off while it streams
// (413), an over-long document is refused before the parser sees it, the parser stops counting at
// MAX_TOKENS, and depth, aliases, directives and cost are checked on the parsed document before
// validation's own rules and execution run (400). The same plugins run for WebSocket operations.
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * The limits, sized from the dashboard's and support's real operations (test/graphql/limits.test.ts
 * checks every query in dashboard/src against them): the largest has about 150 tokens, depth 4, no
 * aliases and no directives; GraphiQL's introspection query about 250 tokens.
 */
export const LIMITS = {
  /** Bytes of one HTTP request body or one WebSocket message (variables included). */
  bodyBytes: 256 * 1024,
  /** Characters of the document itself, checked before parsing. */
  documentChars: 32 * 1024,
  tokens: 3_000,
  depth: 12,
  aliases: 30,
  directives: 20,
  /** graphql-armor's cost: 2 per object, 1 per scalar, nested levels weigh 1.5x, literal `first`/`last` multiply. */
  cost: 20_000,
} as const;

/** The error every refused document gets: a 400 with a code, never a 500. */
export function limitError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_LIMIT', http: { status: 400 } } });
}

/** A document longer than the limit, refused before it is parsed (HTTP and WebSocket). */
export function documentTooLong(query: unknown): GraphQLError | null {
  if (typeof query === 'string' && query.length > LIMITS.documentChars) return limitError(`Query document too long: at most ${LIMITS.documentChars} characters.`);
  return null;
}

function reportLimit(context: ValidationContext | null, error: GraphQLError): void {
  context?.reportError(limitError(error.message.replace(/^Syntax Error: /, '')));
}

/** Yoga/envelop plugins enforcing the limits on parse and validate (run for HTTP, SSE and WebSocket). */
export function limitPlugins(): Plugin[] {
  // The validation-time limits report an error like graphql-js's own rules instead of throwing out
  // of validate (a thrown error would not be a clean validation failure).
  const report = { propagateOnRejection: false, onReject: [reportLimit] };
  const armor = [
    maxTokensPlugin({ n: LIMITS.tokens }),
    maxDepthPlugin({ n: LIMITS.depth, ignoreIntrospection: true, ...report }),
    maxAliasesPlugin({ n: LIMITS.aliases, ...report }),
    maxDirectivesPlugin({ n: LIMITS.directives, ...report }),
    costLimitPlugin({ maxCost: LIMITS.cost, ignoreIntrospection: true, ...report }),
  ] as Plugin[];
  const documentLength: Plugin = {
    onParams({ params }) {
      const tooLong = documentTooLong(params.query);
      if (tooLong) throw tooLong;
    },
  };
  return [documentLength, ...armor];
}
