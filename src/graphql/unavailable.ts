// GraphQL over HTTP when the database cannot be used (down, restarting, saturated: db/busy.ts), or
// a stored secret the operation needs does not decrypt with this process's master key: the
// operation answers 503 with Retry-After and one GraphQL error saying nothing was done, instead of
// Yoga's masked "Unexpected error." with 500 (or 200 with a null field).
import type { Plugin } from 'graphql-yoga';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { isDatabaseBusy } from '../db/busy.ts';
import { languageFrom, message, type Language, type MessageCode } from '../domain/messages.ts';
import { unreadableSecretIn } from '../domain/secrets.ts';
import { logUnreadableSecret, RETRY_AFTER_SECONDS } from '../http/unavailable.ts';
import type { Logger } from '../logger.ts';

const unavailable = (lang: Language, code: MessageCode = 'service_busy') =>
  new GraphQLError(message(code, lang), {
    extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } } },
  });

const langOf = (context: unknown): Language => {
  const c = context as { lang?: Language; request?: Request } | undefined;
  return c?.lang ?? languageFrom(c?.request?.headers.get('accept-language'));
};

/** Runs before Yoga's error masking (plugins are placed ahead of it), so it still sees the cause. */
export function useDatabaseUnavailable(logger?: Logger): Plugin {
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
          if (errors.some((e) => isDatabaseBusy(e.originalError))) return setResult({ errors: [unavailable(langOf(args.contextValue))] });
          const unreadable = errors.map((e) => unreadableSecretIn(e)).find((u) => u !== null);
          if (!unreadable) return;
          if (logger) logUnreadableSecret(logger, unreadable, { operation: 'graphql' });
          setResult({ errors: [unavailable(langOf(args.contextValue), 'service_unavailable')] });
        },
      };
    },
  };
}
