// urql over HTTP for queries and mutations, graphql-ws for subscriptions; every request carries
// the bearer token (the WebSocket in its connection_init payload) and the reader's language.
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from 'urql';
import { createClient as createWsClient } from 'graphql-ws';

export function createGraphQLClient(token: string, lang: string): { client: Client; dispose: () => void } {
  const headers = { Authorization: `Bearer ${token}`, 'Accept-Language': lang };
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  const ws = createWsClient({ url: wsUrl, connectionParams: headers, lazy: true, retryAttempts: 5 });
  const client = new Client({
    url: '/graphql',
    fetchOptions: { headers },
    // Lists and details are read fresh: live events change them behind the cache's back.
    requestPolicy: 'cache-and-network',
    exchanges: [
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
