// How every emulator listens and stops: on 127.0.0.1 and a free port unless told otherwise, its
// address as a base URL, and a close that cuts open keep-alive connections so a test ends at once.
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listenOn(server: Server, options: { host?: string; port?: number }): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
