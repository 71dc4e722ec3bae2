// One gateway per test file without a copied beforeAll/afterAll: `useGateway()` registers both and
// hands back objects that the beforeAll fills in. They are the same objects before and after the
// start, so a file may destructure them at the top (`const { t, merchant: m } = useGateway(...)`)
// and read their fields inside hooks and tests.
import { afterAll, beforeAll } from 'vitest';
import { ManualClock } from '../../src/domain/clock.ts';
import { seedWorkspace, startTestGateway, type Merchant, type SeedOptions, type StartOptions, type TestGateway } from './gateway.ts';
import { startReceiver, type Receiver } from './receiver.ts';

export interface UseGatewayOptions<K extends string> {
  /** Seeds `merchant`: a workspace with a channel and a default simulator account. */
  merchant?: boolean | SeedOptions;
  /** More workspaces by name, e.g. `{ other: {}, basic: { plan: {} } }`, seeded after `merchant`. */
  merchants?: Record<K, SeedOptions>;
  /** Starts `receiver`: an HTTP server on 127.0.0.1 standing in for the merchant's side. */
  receiver?: boolean;
  /** The gateway's clock starts here (ISO time) instead of now. */
  now?: string;
  /** Settings on top of the test defaults, e.g. `{ WEBHOOK_TIMEOUT_MS: '500' }`. */
  env?: Record<string, string>;
}

export interface GatewayFixture<K extends string> {
  t: TestGateway;
  merchant: Merchant;
  merchants: Record<K, Merchant>;
  receiver: Receiver;
  /** A further workspace on this gateway (a fresh one per test, or one with other settings). */
  seed(opts?: SeedOptions): Promise<Merchant>;
  /** A further receiver, closed after the file. */
  startReceiver(): Promise<Receiver>;
}

/** Starts a gateway (and what `opts` asks for) before the file's tests and stops it after them. */
export function useGateway<K extends string = never>(opts: UseGatewayOptions<K> = {}): GatewayFixture<K> {
  const resources = useResources();
  const fixture: GatewayFixture<K> = {
    t: {} as TestGateway,
    merchant: {} as Merchant,
    merchants: Object.fromEntries(Object.keys(opts.merchants ?? {}).map((name) => [name, {}])) as Record<K, Merchant>,
    receiver: {} as Receiver,
    seed: (seedOpts) => seedWorkspace(fixture.t, seedOpts),
    startReceiver: resources.startReceiver,
  };
  beforeAll(async () => {
    Object.assign(fixture.t, await resources.startGateway({ clock: new ManualClock(opts.now), env: opts.env }));
    if (opts.merchant) Object.assign(fixture.merchant, await fixture.seed(opts.merchant === true ? {} : opts.merchant));
    for (const [name, seedOpts] of Object.entries<SeedOptions>(opts.merchants ?? ({} as Record<K, SeedOptions>))) {
      Object.assign(fixture.merchants[name as K], await fixture.seed(seedOpts));
    }
    if (opts.receiver) Object.assign(fixture.receiver, await resources.startReceiver());
  });
  return fixture;
}

export interface Resources {
  /** A gateway stopped after the file (stopping it earlier, e.g. for a restart, is fine). */
  startGateway(opts?: StartOptions): Promise<TestGateway>;
  startReceiver(): Promise<Receiver>;
}

/** For files that start gateways inside their tests (restarts, several processes, settings per test). */
export function useResources(): Resources {
  const cleanups: Array<() => Promise<void>> = [];
  // In reverse order of start: what was started last may depend on what came before it.
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return {
    async startGateway(opts) {
      const t = await startTestGateway(opts);
      cleanups.push(() => t.stop());
      return t;
    },
    async startReceiver() {
      const r = await startReceiver();
      cleanups.push(() => r.close());
      return r;
    },
  };
}
