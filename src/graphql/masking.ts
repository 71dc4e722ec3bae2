// GraphQL errors never echo input values. graphql-js prints the caller's value into its messages
// (`Variable "$input" got invalid value { card: { number: "4111…", securityCode: "739" } } at …`,
// `String cannot represent a non string value: 739`, `Expected Name, found String "…"`), and a card
// number or security code must not come back in a response or reach a log. The message keeps
// what a caller needs to fix the request (the field path and the reason); values become
// `[redacted]`. "Did you mean …" suggestions are dropped too: they spell out the schema to callers
// who may not see it.
import { GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, maskError as yogaMaskError, type Plugin } from 'graphql-yoga';

export const REDACTED = '[redacted]';

/** The message with every echoed input value replaced (see the file comment). */
export function maskInputEcho(message: string): string {
  return maskCardNumbers(maskValuesInReason(maskVariableValue(message))).replace(/\s*Did you mean [^?]*\?/g, '');
}

/**
 * `Variable "$v" got invalid value <value> at "v.a.b"; <reason>` keeps its shape (the REST shim's
 * 422 mapping reads the path and reason) with the value cut out. Without a path the value ends at
 * the first "; " (a string value containing "; " leaves its tail in the reason, which is masked next).
 */
function maskVariableValue(message: string): string {
  const head = /^Variable "\$([_A-Za-z][_0-9A-Za-z]*)" got invalid value /.exec(message);
  if (!head) return message;
  const rest = message.slice(head[0].length);
  const at = new RegExp(` at "${head[1]}(?:\\.[_A-Za-z][_0-9A-Za-z]*|\\[\\d+\\])*"; `).exec(rest);
  const cut = at ? at.index : rest.indexOf('; ');
  if (cut < 0) return `${head[0]}${REDACTED}`;
  return `${head[0]}${REDACTED}${rest.slice(cut)}`;
}

/** Reasons that print the offending value (graphql-js scalars, enums, literals, the lexer). */
const VALUE_ECHOES: Array<[RegExp, string]> = [
  [/(cannot represent[^:]*: ).*$/s, `$1${REDACTED}`],
  [/(Value )".*?"( does not exist in ")/s, `$1${REDACTED}$2`],
  [/(Expected value of type "[^"]*", found ).*?(; |\.?$)/s, `$1${REDACTED}$2`],
  [/(, found (?:String|Int|Float|BlockString|Name) )".*?"/s, `$1${REDACTED}`],
  [/(Unexpected character: ).*$/s, `$1${REDACTED}`],
  [/(Invalid number, (?:unexpected digit after 0|expected digit but got): ).*$/s, `$1${REDACTED}`],
];

function maskValuesInReason(message: string): string {
  return VALUE_ECHOES.reduce((m, [re, to]) => m.replace(re, to), message);
}

/**
 * Any run of 12-19 digits (a possible card number), wherever it sits. Not only Luhn-valid ones:
 * some listed test cards fail the check, and no legitimate message needs such a number.
 */
export function maskCardNumbers(text: string): string {
  return text.replace(/(?<!\d)\d{12,19}(?!\d)/g, REDACTED);
}

/** The same error with a masked message (locations, path and extensions kept). */
export function maskGraphQLError(error: GraphQLError): GraphQLError {
  const masked = maskInputEcho(error.message);
  if (masked === error.message) return error;
  return new GraphQLError(masked, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, originalError: error.originalError, extensions: error.extensions });
}

/** Yoga's `maskedErrors.maskError`: its own masking of unexpected errors, then the input echoes. */
export function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const masked = yogaMaskError(error, message, isDev);
  return masked instanceof GraphQLError ? maskGraphQLError(masked) : masked;
}

/** Validation errors do not pass through Yoga's maskError: mask them where validation ends. */
export function maskValidationErrors(): Plugin {
  return {
    onValidate: () =>
      ({ result, setResult }) => {
        if (result.length) setResult(result.map((e) => (e instanceof GraphQLError ? maskGraphQLError(e) : e)));
      },
  };
}

/**
 * Every string and number the caller sent as variables, as graphql-js prints them (strings
 * JSON-quoted, numbers of 3 or more digits bare). The message-shape rules above cannot be sure
 * where a printed object ends when its keys are hostile; the values themselves can be found.
 */
export function sentValues(variables: unknown, out = new Set<string>()): Set<string> {
  if (typeof variables === 'string' && variables.length >= 3) out.add(JSON.stringify(variables));
  else if (typeof variables === 'number' && String(variables).length >= 3) out.add(String(variables));
  else if (variables && typeof variables === 'object') for (const v of Object.values(variables)) sentValues(v, out);
  return out;
}

export function maskSentValues(message: string, sent: ReadonlySet<string>): string {
  let masked = message;
  for (const value of [...sent].sort((a, b) => b.length - a.length)) {
    if (value.startsWith('"')) masked = masked.split(value).join(REDACTED);
    else masked = masked.replace(new RegExp(`(?<![\\w.])${value.replace(/[.+-]/g, '\\$&')}(?![\\w.])`, 'g'), REDACTED);
  }
  return masked;
}

/** Execution and subscription results: variable errors lose every value the caller sent. */
export function maskVariableEchoes(): Plugin {
  const strip = (sent: ReadonlySet<string>) => (error: GraphQLError) => {
    // Only graphql-js's variable errors print the variables; resolvers' own messages stay as written.
    if (!error.message.startsWith('Variable "$')) return error;
    const masked = maskSentValues(error.message, sent);
    return masked === error.message ? error : new GraphQLError(masked, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, originalError: error.originalError, extensions: error.extensions });
  };
  const onDone = (sent: ReadonlySet<string>) => (payload: Parameters<typeof handleStreamOrSingleExecutionResult>[0]) =>
    handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
      if (result.errors?.length) setResult({ ...result, errors: result.errors.map(strip(sent)) });
    });
  return {
    onExecute({ args }) {
      const sent = sentValues(args.variableValues);
      return sent.size ? { onExecuteDone: onDone(sent) } : undefined;
    },
    onSubscribe({ args }) {
      const sent = sentValues(args.variableValues);
      return sent.size ? { onSubscribeResult: onDone(sent) as never } : undefined;
    },
  };
}
