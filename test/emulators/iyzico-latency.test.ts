// The emulator's `latency` option: a real bank's time to answer, on every API call, measured.
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { parseLatency } from '../../emulators/iyzico/behaviour.ts';
import { startIyzicoEmulator, type IyzicoEmulator } from '../../emulators/iyzico/server.ts';
import { iyzipay } from './iyzipay-client.ts';

let emulator: IyzicoEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function timedBinCheck(e: IyzicoEmulator, apiKey = e.apiKey): Promise<{ ms: number; status: string }> {
  const client = iyzipay({ apiKey, secretKey: e.secretKey, uri: e.url });
  const started = performance.now();
  const answer = await client.call('binNumber', 'retrieve', { binNumber: '552879' });
  return { ms: performance.now() - started, status: answer.status as string };
}

describe('iyzico emulator latency', () => {
  it('delays every API answer by a random time within the range, and records what it waited', async () => {
    emulator = await startIyzicoEmulator({ latency: { minMs: 120, maxMs: 160 } });
    const calls = await Promise.all([timedBinCheck(emulator), timedBinCheck(emulator), timedBinCheck(emulator, 'unknown-key')]);
    // A refusal (unknown key) waits too: the bank takes its time whatever it answers.
    expect(calls.map((c) => c.status)).toEqual(['success', 'success', 'failure']);
    for (const call of calls) expect(call.ms).toBeGreaterThanOrEqual(119);
    const waited = emulator.behaviour.takeLatencies();
    expect(waited).toHaveLength(3);
    for (const ms of waited) {
      expect(ms).toBeGreaterThanOrEqual(119);
      expect(ms).toBeLessThan(400);
    }
    // Taken once: the next read has only what came after.
    expect(emulator.behaviour.takeLatencies()).toEqual([]);
  });

  it('leaves the emulator controls and an emulator without the option undelayed', async () => {
    emulator = await startIyzicoEmulator({ latency: { minMs: 400, maxMs: 400 } });
    const started = performance.now();
    expect((await fetch(`${emulator.url}/_emulator/state`)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(300);
    await emulator.close();

    emulator = await startIyzicoEmulator();
    const call = await timedBinCheck(emulator);
    expect(call.status).toBe('success');
    expect(call.ms).toBeLessThan(300);
    expect(emulator.behaviour.takeLatencies()).toEqual([]);
  });

  it('reads MIN-MAX or one fixed value, and refuses anything else', async () => {
    expect(parseLatency('300-800')).toEqual({ minMs: 300, maxMs: 800 });
    expect(parseLatency('250')).toEqual({ minMs: 250, maxMs: 250 });
    expect(() => parseLatency('800-300')).toThrow('latency needs integers 0 <= minMs <= maxMs');
    expect(() => parseLatency('fast')).toThrow('latency must be MIN-MAX or MS in milliseconds, got "fast"');
    expect(() => parseLatency('-5')).toThrow('latency must be MIN-MAX');
    await expect(startIyzicoEmulator({ latency: { minMs: 10, maxMs: 5 } })).rejects.toThrow('latency needs integers');
  });
});
