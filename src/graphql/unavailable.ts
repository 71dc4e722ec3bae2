// GraphQL over HTTP when the database cannot be used (down, restarting, saturated: db/busy.ts):
// the operation answers 503 with Retry-After and one GraphQL error saying nothing was done,
// instead of Yoga's masked "Unexpected error." with 500 (or 200 with a null field).
import type { Plugin } from 'graphql-yoga';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { isDatabaseBusy } from '../db/busy.ts';
import { languageFrom, message, type Language } from '../domain/messages.ts';
import { RETRY_AFTER_SECONDS } from '../http/unavailable.ts';

const unavailable = (lang: Language) =>
  new GraphQLError(message('service_busy', lang), {
    extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } } },
  });

const langOf = (context: unknown): Language => {
  const c = context as { lang?: Language; request?: Request } | undefined;
  return c?.lang ?? languageFrom(c?.request?.headers.get('accept-language'));
};

/** Runs before Yoga's error masking (plugins are placed ahead of it), so it still sees the cause. */
export function useDatabaseUnavailable(): Plugin {
  return {
    onPluginInit({ registerContextErrorHandler }) {
      // Building the context reads the caller's token from the database.
      registerContextErrorHandler(({ error, context, setError }) => {
        if (isDatabaseBusy(error)) setError(unavailable(langOf(context)));
      });
    },
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result)) return; // a stream (subscriptions): its events carry their own errors
          const errors = (result as ExecutionResult).errors ?? [];
          if (errors.some((e) => isDatabaseBusy(e.originalError))) setResult({ errors: [unavailable(langOf(args.contextValue))] });
        },
      };
    },
  };
}
