// urql over HTTP for queries and mutations, graphql-ws for subscriptions; every request carries
// the bearer token or a person's CSRF token (the WebSocket in its connection_init payload) and the
// reader's language.
import { Client, cacheExchange, fetchExchange, mapExchange, subscriptionExchange, type CombinedError } from 'urql';
import { createClient as createWsClient } from 'graphql-ws';

/** The gateway refused the bearer token (unknown, expired or revoked). */
export const isUnauthenticated = (error: CombinedError | undefined): boolean =>
  !!error && (error.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED') || error.response?.status === 401);

/** How requests authenticate: a bearer token, or a person's session cookie with its CSRF token. */
export type Auth = { token: string } | { csrfToken: string };

/** `onUnauthenticated` runs when any operation's answer says the token or session is no longer accepted. */
export function createGraphQLClient(auth: Auth, lang: string, onUnauthenticated?: () => void): { client: Client; dispose: () => void } {
  // The session cookie goes along by itself (same origin, the WebSocket's upgrade request too).
  const headers = { ...('token' in auth ? { Authorization: `Bearer ${auth.token}` } : { 'X-CSRF-Token': auth.csrfToken }), 'Accept-Language': lang };
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  const ws = createWsClient({ url: wsUrl, connectionParams: headers, lazy: true, retryAttempts: 5 });
  const client = new Client({
    url: '/graphql',
    fetchOptions: { headers },
    // Lists and details are read fresh: live events change them behind the cache's back.
    requestPolicy: 'cache-and-network',
    exchanges: [
      mapExchange({ onError: (error) => (isUnauthenticated(error) ? onUnauthenticated?.() : undefined) }),
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
  return { client, dispose: () => void ws.dispose() };
}
