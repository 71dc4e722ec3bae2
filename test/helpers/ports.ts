// Free TCP ports on 127.0.0.1, and whether something still listens on one.
import net from 'node:net';
import getPort from 'get-port';

/** get-port also keeps a port it gave out from being given again for a while, so two calls never collide. */
export const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

export async function acceptsConnections(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(2_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}
