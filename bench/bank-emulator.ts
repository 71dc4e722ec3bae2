// The bank of `npm run bench`'s bank phase: the iyzico emulator with a latency on every answer, in
// a process of its own (forked by bench/lib/bank-process.ts), so that its CPU is neither the
// gateway's nor the load generator's. Over the IPC channel it tells where it listens, and hands
// over the latencies it applied since the last ask (measured around each wait).
import { startIyzicoEmulator } from '../emulators/iyzico/server.ts';

const settings = JSON.parse(process.env.BANK_EMULATOR ?? '{}') as { apiKey: string; secretKey: string; minMs: number; maxMs: number };
const emulator = await startIyzicoEmulator({
  apiKey: settings.apiKey,
  secretKey: settings.secretKey,
  latency: { minMs: settings.minMs, maxMs: settings.maxMs },
});

process.on('message', (message: { type?: string }) => {
  if (message.type === 'latencies') process.send!({ type: 'latencies', latencies: emulator.behaviour.takeLatencies() });
});
const stop = () => void emulator.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
process.send!({ type: 'listening', url: emulator.url });
