// npm start: config -> database (embedded or DATABASE_URL) -> migrate -> server + jobs.
import { loadConfig } from './config.ts';
import { startGateway } from './gateway.ts';

const config = loadConfig();
const gateway = await startGateway(config, { seedDemo: true });

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\n${signal} received, stopping the server, the jobs and the database...\n`);
  await gateway.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
