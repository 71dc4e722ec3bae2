// Which failed calls never sent their request (so another account may be tried) and which may have
// reached the provider (unknown outcome): real connections on 127.0.0.1, not made-up errors.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { exchange, neverSent } from '../../src/providers/exchange.ts';
import { ProviderTimeoutError, ProviderUnreachableError } from '../../src/providers/types.ts';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

async function listen(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    sockets.push(socket);
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const call = (port: number, timeoutMs = 1_000) =>
  exchange({ providerId: 'p', operation: 'charge', url: `http://127.0.0.1:${port}/pay`, request: { method: 'POST', body: '{}' }, shown: {}, timeoutMs, read: (raw) => raw, scrub: (v) => v });

const failureOf = async (port: number, timeoutMs?: number) => call(port, timeoutMs).then(() => null, (err: unknown) => err);

describe('a call that got no answer', () => {
  it('a refused connection never sent anything: ProviderUnreachableError (still a ProviderTimeoutError)', async () => {
    const err = await failureOf(await closedPort());
    expect(err).toBeInstanceOf(ProviderUnreachableError);
    expect(err).toBeInstanceOf(ProviderTimeoutError);
  });

  it('a connection reset after the request was read may have moved money: a plain timeout', async () => {
    const port = await listen((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const err = await failureOf(port);
    expect(err).toBeInstanceOf(ProviderTimeoutError);
    expect(err).not.toBeInstanceOf(ProviderUnreachableError);
  });

  it('no answer within the deadline: a plain timeout', async () => {
    const port = await listen(() => undefined);
    const err = await failureOf(port, 200);
    expect(err).toBeInstanceOf(ProviderTimeoutError);
    expect(err).not.toBeInstanceOf(ProviderUnreachableError);
  });

  it('reads a host with several addresses that all refused (an AggregateError) as never sent, and nothing else', () => {
    expect(neverSent({ cause: { errors: [{ code: 'ECONNREFUSED' }, { code: 'ECONNREFUSED' }] } })).toBe(true);
    expect(neverSent({ cause: { errors: [{ code: 'ECONNREFUSED' }, { code: 'ECONNRESET' }] } })).toBe(false);
    expect(neverSent({ cause: { code: 'ENOTFOUND' } })).toBe(true);
    expect(neverSent(new Error('no cause'))).toBe(false);
    expect(neverSent(null)).toBe(false);
  });
});
