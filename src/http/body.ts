// Reading a request body, shared by the REST shim and the hosted pages; each caller picks its own
// limit and answers an oversized body its own way (413 JSON, or a page).
import type { IncomingMessage } from 'node:http';

/** The raw bytes, or null past `limit` (the rest is drained, not buffered). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) tooLarge = true;
    if (!tooLarge) chunks.push(chunk as Buffer);
  }
  return tooLarge ? null : Buffer.concat(chunks);
}
