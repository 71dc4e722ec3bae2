// How big and how expensive one GraphQL operation may be. Every limit refuses the operation with a
// 4xx before the work grows with the document: the request body is cut off while it streams
// (413), an over-long document is refused before the parser sees it, graphql-js's parser stops at
// LIMITS.tokens (so the rest works on a bounded document), and depth, aliases, directives and cost
// are validation rules: over a limit, nothing executes (400). The same plugins run for WebSocket operations.
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * The limits, sized from the dashboard's and support's real operations (test/graphql/limits.test.ts
 * checks every query in dashboard/src against them): the largest has 89 tokens, depth 5 and cost
 * 144, none has aliases or directives; GraphiQL's introspection query has 163 tokens (depth and cost
 * do not count introspection); a support query listing 200 payments with a dozen fields costs ~15,000.
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
  cost: 50_000,
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

const isLimitError = (e: unknown) => e instanceof GraphQLError && e.extensions.code === 'QUERY_LIMIT';

/**
 * Yoga marks parse and validation errors as GraphQL-over-HTTP "request errors", which answer 200
 * to an `Accept: application/json` caller. A refused limit is the server's refusal and answers
 * 400 whatever the caller accepts: a result holding one marks its request, whose answer is re-sent.
 */
function limitStatus(): Plugin {
  const refused = new WeakSet<Request>();
  return {
    // The result, not the parse or validate hooks: Yoga's caches answer a repeated document
    // without running those hooks again.
    onResultProcess({ request, result }) {
      const results = Array.isArray(result) ? result : [result];
      if (results.some((r) => 'errors' in r && (r.errors as unknown[] | undefined)?.some(isLimitError))) refused.add(request);
    },
    onResponse({ request, response, setResponse, fetchAPI }) {
      if (response.status === 200 && refused.has(request)) setResponse(new fetchAPI.Response(response.body, { status: 400, headers: response.headers }));
    },
  };
}

/** Yoga/envelop plugins enforcing the limits on parse and validate (run for HTTP, SSE and WebSocket). */
export function limitPlugins(): Plugin[] {
  // The validation-time limits report an error like graphql-js's own rules instead of throwing out
  // of validate (a thrown error would not be a clean validation failure).
  const report = { propagateOnRejection: false, onReject: [reportLimit] };
  const armor = [
    maxDepthPlugin({ n: LIMITS.depth, ignoreIntrospection: true, ...report }),
    maxAliasesPlugin({ n: LIMITS.aliases, ...report }),
    maxDirectivesPlugin({ n: LIMITS.directives, ...report }),
    costLimitPlugin({ maxCost: LIMITS.cost, ignoreIntrospection: true, ...report }),
  ] as Plugin[];
  // graphql-js's own parser stops at maxTokens; its syntax error becomes the limit's 400.
  const tokenLimit: Plugin = {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parseFn(source, { ...options, maxTokens: LIMITS.tokens });
        } catch (err) {
          if (err instanceof GraphQLError && /Document contains more th\w+ \d+ tokens/.test(err.message)) throw limitError(`Query has more than ${LIMITS.tokens} tokens.`);
          throw err;
        }
      });
    },
  };
  const documentLength: Plugin = {
    onParams({ params }) {
      const tooLong = documentTooLong(params.query);
      if (tooLong) throw tooLong;
    },
  };
  return [documentLength, tokenLimit, ...armor, limitStatus()];
}
