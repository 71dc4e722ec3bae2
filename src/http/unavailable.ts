// The answer to any request that met a database it could not use (down, restarting, saturated:
// db/busy.ts): 503 with Retry-After, "nothing was done, retry shortly", in the form the caller
// reads: the REST error body, a GraphQL error, or a plain page for a browser on a hosted page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import escapeHtml from 'escape-html';
import { languageFrom, message } from '../domain/messages.ts';
import { simpleError } from '../rest/errors.ts';

/** Seconds a client is asked to wait before trying again (the REST handler's busy answers say the same). */
export const RETRY_AFTER_SECONDS = 2;

export function answerUnavailable(req: IncomingMessage, res: ServerResponse): void {
  const lang = languageFrom(req.headers['accept-language']);
  const text = message('service_busy', lang);
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const [type, body] =
    path === '/graphql' || path.startsWith('/graphql/')
      ? ['application/json; charset=utf-8', JSON.stringify({ errors: [{ message: text, extensions: { code: 'SERVICE_UNAVAILABLE' } }] })]
      : !path.startsWith('/api/') && /text\/html/.test(req.headers.accept ?? '')
        ? ['text/html; charset=utf-8', page(text, lang)]
        : ['application/json; charset=utf-8', JSON.stringify(simpleError('service_busy', lang))];
  if (!res.headersSent) res.writeHead(503, { 'Content-Type': type, 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' });
  res.end(body);
}

const page = (text: string, lang: string) =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>503</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>503</h1><p>${escapeHtml(text)}</p></body></html>`;
