// A port nobody listens on right now (the OS picks it; a race with another process is unlikely).
import getPort from 'get-port';

export const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });
