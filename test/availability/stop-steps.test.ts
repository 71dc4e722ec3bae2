// A gateway's stop goes on past a step that does not finish (a connection to a database that
// vanished can wait as long as TCP does), and says which step it left behind.
import { describe, expect, it } from 'vitest';
import { withinLimit } from '../../src/stop-steps.ts';
import { createLogger } from '../../src/logger.ts';

function logged() {
  const lines: string[] = [];
  return { lines, logger: createLogger('debug', (line) => lines.push(line)) };
}

describe('a stop step', () => {
  it('that never finishes is left behind at its limit, with a warning naming it', async () => {
    const { lines, logger } = logged();
    const started = Date.now();
    await withinLimit({ name: 'notifications', run: () => new Promise(() => {}), limitMs: 100 }, logger);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    const warned = lines.map((l) => JSON.parse(l) as { level: string; msg: string; step?: string; waited_ms?: number }).filter((l) => l.level === 'warn');
    expect(warned).toEqual([expect.objectContaining({ msg: 'stop step did not finish in time; the stop goes on without it', step: 'notifications', waited_ms: 100 })]);
  });

  it('that finishes in time says nothing, and its failure reaches the stop', async () => {
    const { lines, logger } = logged();
    await withinLimit({ name: 'HTTP server', run: async () => {}, limitMs: 100 }, logger);
    await expect(withinLimit({ name: 'database pool', run: () => Promise.reject(new Error('gone')), limitMs: 100 }, logger)).rejects.toThrow('gone');
    expect(lines).toEqual([]);
  });

  it('without a limit is waited for however long it takes', async () => {
    const { lines, logger } = logged();
    let done = false;
    await withinLimit({ name: 'embedded PostgreSQL', run: () => new Promise<void>((resolve) => setTimeout(() => resolve(void (done = true)), 150)), limitMs: null }, logger);
    expect(done).toBe(true);
    expect(lines).toEqual([]);
  });
});
