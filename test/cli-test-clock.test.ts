// `gateway test-clock …` as the real executable (a child process, as `npm run gateway -- …` runs
// it) on a running gateway's database: an advance renews the subscription that fell due, as
// GraphQL's advanceTestClock does; live workspaces and bad durations are refused on one line.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { useGateway } from './helpers/fixture.ts';
import { TEST_MASTER_KEY } from './helpers/gateway.ts';
import { message } from '../src/domain/messages.ts';
import { openSubscription, payPeriod, recurringProduct, saveProducts, subscriptionRow } from './subscriptions/support.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DAY = 86_400_000;

const gw = useGateway();
const { t } = gw;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function gatewayCli(...args: string[]): Promise<Run> {
  const env = { PATH: process.env.PATH, DATABASE_URL: t.databaseUrl, GATEWAY_MASTER_KEY: TEST_MASTER_KEY, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gateway-cli-')) };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env, timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** Exit 1, nothing on stdout, exactly one line on stderr. */
function expectRefused(run: Run, expected: string): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr.trim().split('\n')).toEqual([`error: ${expected}`]);
}

const both = (code: 'test_clock_live_mode' | 'test_clock_duration') => `${message(code, 'tr')} / ${message(code, 'en')}`;

describe('gateway test-clock', { timeout: 240_000 }, () => {
  it('advance 31d renews the monthly subscription that came due; show prints the new time', async () => {
    const m = await gw.seed({ slug: 'clocky' });
    await saveProducts(m, [recurringProduct(m, 'PLAN-M')]);
    const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M' }] });
    const { acs } = await payPeriod(t, token);
    expect(acs?.returnToken).toBeTruthy();
    const before = await subscriptionRow(t, token);
    expect(before.periods.map((p) => p.status)).toEqual(['paid']);

    const started = Date.now();
    const advanced = await gatewayCli('test-clock', 'advance', 'clocky', '31d');
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(advanced.stdout).toMatch(/^Test clock of "clocky" advanced by 31d: /);
    expect(advanced.stdout).toMatch(new RegExp(`period_end  ${token}  renewed`));

    const after = await subscriptionRow(t, token);
    expect(after.periods.map((p) => [p.number, p.status, p.payments.length])).toEqual([
      [1, 'paid', 1],
      [2, 'paid', 1],
    ]);
    expect(after.periods[1]!.payments[0]).toMatchObject({ source: 'subscription', securityType: 'non_secure', status: 'successful' });
    expect(after.periods[1]!.startsAt?.toISOString()).toBe(before.periods[0]!.endsAt?.toISOString());

    const shown = await gatewayCli('--json', 'test-clock', 'show', 'clocky');
    expect(shown.code, shown.stderr).toBe(0);
    const clock = JSON.parse(shown.stdout) as { team: string; mode: string; now: string; offset_ms: number };
    expect(clock).toMatchObject({ team: 'clocky', mode: 'test' });
    // The workspace's time is 31 days ahead of the system clock the CLI runs on.
    const ahead = new Date(clock.now).getTime() - Date.now();
    expect(ahead).toBeGreaterThan(31 * DAY - (Date.now() - started) - 60_000);
    expect(ahead).toBeLessThanOrEqual(31 * DAY + 60_000);

    const text = await gatewayCli('test-clock', 'show', 'clocky');
    const [day, local] = [clock.now.slice(0, 10), DateTime.fromISO(clock.now, { zone: 'Europe/Istanbul' }).toISODate()];
    expect(text.stdout).toMatch(new RegExp(`^Test clock of "clocky" \\(test mode\\): ${day}T\\S+Z \\(${local} \\d\\d:\\d\\d Europe/Istanbul\\), (31d 0h 0m|30d 23h 59m \\d+s) ahead of the gateway's clock\n$`));
  });

  it('refuses a live workspace, bad durations and an unknown workspace on one line, moving nothing', async () => {
    const live = await gw.seed({ slug: 'livews' });
    await t.gateway.services.db.workspace.update({ where: { id: live.workspaceId }, data: { mode: 'live' } });
    await gw.seed({ slug: 'testws' });

    const [liveRun, bad, zero, tooFar, unknown] = await Promise.all([
      gatewayCli('test-clock', 'advance', 'livews', '1d'),
      gatewayCli('test-clock', 'advance', 'testws', '5x'),
      gatewayCli('test-clock', 'advance', 'testws', '0d'),
      gatewayCli('test-clock', 'advance', 'testws', '11y'),
      gatewayCli('test-clock', 'advance', 'nobody', '1d'),
    ]);
    expectRefused(liveRun, both('test_clock_live_mode'));
    for (const run of [bad, zero, tooFar]) expectRefused(run, both('test_clock_duration'));
    expectRefused(unknown, 'No workspace "nobody"');
    const rows = await t.gateway.services.db.workspace.findMany({ where: { slug: { in: ['livews', 'testws'] } } });
    expect(rows.map((w) => w.testClockOffsetMs)).toEqual([0n, 0n]);
  });
});
