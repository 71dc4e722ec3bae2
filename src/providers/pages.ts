// The pages providers serve on the gateway itself (the simulator's ACS), routed by their patterns.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProviderRegistry } from './registry.ts';

export function createProviderPages(registry: ProviderRegistry) {
  const pages = registry.definitions.flatMap((d) => d.pages ?? []);
  return async function handleProviderPage(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    for (const page of pages) {
      const match = page.pattern.exec(path);
      if (!match) continue;
      const handler = req.method === 'GET' ? page.get : req.method === 'POST' ? page.post : undefined;
      if (handler) await handler(req, res, match);
      else {
        res.writeHead(405, { Allow: [page.get && 'GET', page.post && 'POST'].filter(Boolean).join(', ') });
        res.end();
      }
      return true;
    }
    return false;
  };
}
