// The gateway's port, said in one sentence when it cannot be had: checked once before anything
// starts (a start that would fail on it starts no database and runs no migration), and again by
// the real listen (something may take it in between).
import net from 'node:net';

/** A listen error as the sentence a start reports; other errors are returned as they are. */
export function portError(err: unknown, port: number, host: string): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'EADDRINUSE') return new Error(`port ${port} on ${host} is already in use (PORT): stop what uses it or choose another port.`);
  if (code === 'EACCES') return new Error(`port ${port} on ${host} may not be used by this user (PORT): choose a port above 1023.`);
  return err;
}

/** Resolves when `port` on `host` can be listened on now (0, any free port, always can). */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (err) {
    throw portError(err, port, host);
  }
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
