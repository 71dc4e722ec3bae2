// Every fenced shell block of the README, run as written against a started gateway that made the
// demo workspace as `npm start` does: the API examples (both signing forms, then every request body
// through the README's `call` helper, in the README's order, in one shell as a reader pastes them),
// the CSV export, and the admin CLI lines (their `<team>` and `<…-token>` placeholders given the demo
// workspace and accounts of it). Blocks run by another test, or that start a server of their own
// and never end, are named below with where they are covered; a new block that is in neither list
// fails this test.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliOn } from './helpers/cli.ts';
import { useResources } from './helpers/fixture.ts';
import type { TestGateway } from './helpers/gateway.ts';
import { ROOT } from './helpers/gateway-process.ts';
import { readmeShellEnv } from './helpers/readme-bank.ts';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** Every fenced shell block (indented ones too, unindented), in order. */
const SH_BLOCKS = [...README.matchAll(/^( *)```sh\n([\s\S]*?)^ *```$/gm)].map((m) =>
  m[2]!.split('\n').map((line) => line.slice(m[1]!.length)).join('\n'),
);

/** Blocks another test runs as written, or that start a long-running server; each by a text it contains. */
const ELSEWHERE: Array<[string, string]> = [
  ['npm install\nnpm start', 'test/start-npm.test.ts starts `npm start` as written'],
  // The EST and Garanti pairs run there; iyzico's pair, of the same shape, is not run by any test.
  ['npm run emulator -- ', 'test/readme-bank-emulators.test.ts (a server that runs until stopped)'],
  ['account create demo ', 'test/readme-bank-emulators.test.ts, with the emulator it names'],
  ['/gateway/secure-payment', 'test/readme-bank-emulators.test.ts, through an emulator'],
  ['export GATEWAY_DIR=', "test/client-package.test.ts, the TypeScript example on the machine's Node"],
  ['OTEL_EXPORTER_OTLP_ENDPOINT=', 'starts the gateway with a collector (test/observability)'],
  ['docker compose', 'needs a Docker engine; test/image.test.ts replays the image'],
  ['DATABASE_OWNER_URL=postgresql://gateway:…', 'a production start on an operator\'s database (test/image.test.ts)'],
  ['npm run ha -- up', 'installs Debian packages; test/ha/failover.test.ts brings the same deployment up and down'],
  ['member role demo ', 'test/people/cli-members.test.ts, with a person who accepted the invitation'],
  ['risk rules save acme', 'test/risk/cli.test.ts runs these commands, with the rule ids and payment token earlier answers gave'],
];

const CALLING = 'OP_PATH=/api/$TEAM/gateway/retrieve-bin';
const HELPER = 'call() {';
const isBody = (b: string) => b.startsWith('call ');
const isCsv = (b: string) => b.includes('/dashboard/export/payments.csv');
const isCli = (b: string) => b.split('\n').every((line) => line === '' || line.startsWith('npm run gateway -- ') || line.startsWith('  --'));

const resources = useResources();
let t: TestGateway;

beforeAll(async () => {
  t = await resources.startGateway({ seedDemo: true });
}, 120_000);

async function bash(script: string): Promise<string> {
  const { stdout } = await promisify(execFile)('bash', ['-e', '-c', script], { cwd: ROOT, env: readmeShellEnv(t), timeout: 200_000, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

describe("the README's shell blocks, run as written", { timeout: 300_000 }, () => {
  it('every block is run here or named with the test that runs it', () => {
    const unplaced = SH_BLOCKS.filter((b) => !ELSEWHERE.some(([text]) => b.includes(text)) && !b.includes(CALLING) && !b.includes(HELPER) && !isBody(b) && !isCsv(b) && !isCli(b));
    expect(unplaced).toEqual([]);
    expect(SH_BLOCKS.filter((b) => b.includes(CALLING))).toHaveLength(1);
    expect(SH_BLOCKS.filter((b) => b.includes(HELPER))).toHaveLength(1);
  });

  it('the signing examples and every request body answer 200 in order, with the demo channel and the tokens earlier answers gave', async () => {
    const calling = SH_BLOCKS.find((b) => b.includes(CALLING))!;
    const helper = SH_BLOCKS.find((b) => b.includes(HELPER))!;
    const bodies = SH_BLOCKS.filter(isBody);
    expect(bodies.length).toBeGreaterThanOrEqual(22);
    const operations = bodies.flatMap((b) => [...b.matchAll(/^call "?([a-z-]+)/gm)].map((m) => m[1]!));
    // Each line of output is one answer: the two signing forms' retrieve-bin, then each call's.
    const out = (await bash([calling, helper, ...bodies].join('\n'))).split('\n').filter((line) => line.startsWith('{'));
    expect(out).toHaveLength(2 + operations.length);
    const answers = out.map((line) => JSON.parse(line) as { result: { successful: boolean; message?: string } });
    const names = ['retrieve-bin (body form)', 'retrieve-bin (timestamp form)', ...operations];
    const failed = answers.flatMap((a, i) => (a.result.successful ? [] : [`${names[i]}: ${a.result.message}`]));
    expect(failed).toEqual([]);
    expect(operations).toEqual(expect.arrayContaining(['cancel-payment', 'delete-saved-card', 'cancel-subscription', 'update-payment-link', 'retrieve-link-payments']));
  });

  it('the CSV export example downloads the demo workspace\'s successful payments', async () => {
    const csv = SH_BLOCKS.filter(isCsv);
    expect(csv).toHaveLength(1);
    const rows = parse(await bash(csv[0]!), { columns: true }) as Array<Record<string, string>>;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['successful']));
  });

  // bash reads each line as a reader's shell does (quotes, comments, continued lines); its `npm run
  // gateway -- …` hands the words to the CLI, run in-process (src/cli/program.ts) to save a start per line.
  it('the admin CLI lines run on the demo workspace, their placeholders filled', async () => {
    const cli = cliOn(t);
    const tokenOf = async (name: string) => /payment_provider_token\s+([0-9a-f-]{36})/.exec((await cli.run(['account', 'create', 'demo', name])).stdout)![1]!;
    const tokens: Record<string, string> = { 'psp-token': await tokenOf('psp'), 'bank-token': await tokenOf('bank'), 'simulator-token': await tokenOf('simulator') };
    const blocks = SH_BLOCKS.filter((b) => isCli(b) && !ELSEWHERE.some(([text]) => b.includes(text)));
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const block of blocks) {
      const script = block.replaceAll('<team>', 'demo').replace(/<([a-z-]+-token)>/g, (_, name: string) => {
        expect(tokens, `a token for <${name}>`).toHaveProperty(name);
        return tokens[name]!;
      });
      expect(script).not.toMatch(/<[a-z-]+>/);
      const words = await bash(`npm() { [ "$1 $2 $3" = 'run gateway --' ] || exit 9; shift 3; printf '%s\\x1f' "$@"; echo; }\n${script}`);
      for (const line of words.split('\n').filter(Boolean)) {
        const args = line.split('\x1f').slice(0, -1);
        const res = await cli.run(args);
        expect(res.stderr, args.join(' ')).toBe('');
        expect(res.code, args.join(' ')).toBe(0);
      }
    }
  });
});
