// Writes that wait for each other: while one statement is in flight, the writes asked for meanwhile
// gather and go together in the next. This is group commit done by the application. PostgreSQL
// spends most of a small write's CPU on the statement and its COMMIT rather than on the rows (on
// the benchmark's two cores a settlement alone cost about half a millisecond of PostgreSQL's CPU
// and a quarter of the gateway's: docs/performance.md, "Settlements gathered"), so under load one
// statement serves many callers; alone, a write goes at once, as if it were not gathered.
//
// Each caller still waits for the COMMIT of the statement that carried its write, so nothing is
// answered before it is durable. A statement that fails for a reason other than a busy database
// is tried again for each of its writes alone, so that one write's error reaches only its caller.
import { isDatabaseBusy } from './busy.ts';

interface Waiting<I, R> {
  item: I;
  resolve: (result: R | undefined) => void;
  reject: (err: unknown) => void;
}

export class GatheredWrites<I, R> {
  private waiting: Array<Waiting<I, R>> = [];
  private inFlight = false;

  /**
   * `write` sends one statement for the items and returns each one's result by its key (none: the
   * write changed nothing for it). `key` names what an item writes: two items with the same key never
   * go in the same statement, the second waits for the next. `limit`: most items in one statement.
   */
  constructor(
    private readonly write: (items: I[]) => Promise<Map<string, R>>,
    private readonly key: (item: I) => string,
    private readonly limit = 100,
  ) {}

  /** Resolves with the item's result once the statement that carried it has committed. */
  add(item: I): Promise<R | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.inFlight) void this.next();
    });
  }

  private async next(): Promise<void> {
    const batch = this.take();
    if (batch.length === 0) return;
    this.inFlight = true;
    try {
      await this.send(batch);
    } finally {
      this.inFlight = false;
      if (this.waiting.length > 0) void this.next();
    }
  }

  /** The waiting items for one statement: the first `limit`, without a key twice. */
  private take(): Array<Waiting<I, R>> {
    const keys = new Set<string>();
    const batch: Array<Waiting<I, R>> = [];
    const later: Array<Waiting<I, R>> = [];
    for (const w of this.waiting) {
      const key = this.key(w.item);
      if (batch.length < this.limit && !keys.has(key)) {
        keys.add(key);
        batch.push(w);
      } else later.push(w);
    }
    this.waiting = later;
    return batch;
  }

  private async send(batch: Array<Waiting<I, R>>): Promise<void> {
    try {
      const results = await this.write(batch.map((w) => w.item));
      for (const w of batch) w.resolve(results.get(this.key(w.item)));
    } catch (err) {
      if (batch.length === 1 || isDatabaseBusy(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      await Promise.all(batch.map((w) => this.send([w])));
    }
  }
}
