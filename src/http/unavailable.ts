// The answer to any request that met a database it could not use (down, restarting, saturated:
// db/busy.ts), or a stored secret this process cannot decrypt (the operator's to fix: the log says
// how): 503 with Retry-After, "nothing was done", in the form the caller reads: the REST error
// body, a GraphQL error, or a plain page for a browser on a hosted page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import escapeHtml from 'escape-html';
import { languageFrom, message, type MessageCode } from '../domain/messages.ts';
import { simpleError } from '../rest/errors.ts';
import type { UnreadableSecretError } from '../domain/secrets.ts';
import type { Logger } from '../logger.ts';

/** Seconds a client is asked to wait before trying again (the REST handler's busy answers say the same). */
export const RETRY_AFTER_SECONDS = 2;

export function answerUnavailable(req: IncomingMessage, res: ServerResponse, code: MessageCode = 'service_busy'): void {
  const lang = languageFrom(req.headers['accept-language']);
  const text = message(code, lang);
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const [type, body] =
    path === '/graphql' || path.startsWith('/graphql/')
      ? ['application/json; charset=utf-8', JSON.stringify({ errors: [{ message: text, extensions: { code: 'SERVICE_UNAVAILABLE' } }] })]
      : !path.startsWith('/api/') && /text\/html/.test(req.headers.accept ?? '')
        ? ['text/html; charset=utf-8', page(text, lang)]
        : ['application/json; charset=utf-8', JSON.stringify(simpleError(code, lang))];
  if (!res.headersSent) res.writeHead(503, { 'Content-Type': type, 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' });
  res.end(body);
}

const page = (text: string, lang: string) =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>503</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>503</h1><p>${escapeHtml(text)}</p></body></html>`;

/** The operator's line for a stored secret this process cannot decrypt: which one, and the ways to fix it. */
export function logUnreadableSecret(logger: Logger, err: UnreadableSecretError, fields: Record<string, unknown>): void {
  logger.error('stored secret cannot be decrypted with this master key; answered 503', {
    stored: err.subject,
    problem: err.problem,
    fix: 'run every gateway and CLI with the GATEWAY_MASTER_KEY this secret was written with, or replace it: npm run gateway -- workspace rotate-key <team> (API key), account update <team> <token> --credential … (payment account)',
    ...fields,
  });
}

