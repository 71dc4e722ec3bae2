// `gateway test-clock …`: a test-mode workspace's own clock. The rules (test mode only, the
// duration's form and bounds, what runs as the clock passes) live in
// src/domain/subscriptions/test-clock.ts, the same function GraphQL's advanceTestClock calls; this
// file builds the services it needs, parses words and prints.
import type { Command } from 'commander';
import { DateTime, Duration } from 'luxon';
import { DomainError } from '../domain/errors.ts';
import { systemClock } from '../domain/clock.ts';
import type { Services } from '../domain/services.ts';
import { advanceTestClock, showTestClock, type Advance, type ClockStep, type TestClock } from '../domain/subscriptions/test-clock.ts';
import { requireWorkspace } from '../domain/workspaces.ts';
import { poolOf } from '../db/client.ts';
import { createLogger } from '../logger.ts';
import { withDatabase, type CliContext, type CliIo } from './context.ts';
import { CliError } from './parse.ts';
import { domainErrorLine } from './webhooks.ts';

/**
 * What an advance needs besides the database: renewals charge through the providers and queue
 * their later work (3D expiry, receipts) as jobs, which a running gateway's job runner then runs.
 * Built as the gateway builds them, on the system clock the gateway runs on.
 */
async function withClockServices(ctx: CliContext, io: CliIo, run: (s: Services) => Promise<void>): Promise<void> {
  // Loaded here, not for --help: the payment owners pull in most of the gateway.
  const [{ createServices }, { createJobRunner, agendaScheduler }] = await Promise.all([import('../gateway.ts'), import('../jobs/agenda.ts')]);
  const { config } = ctx;
  const logger = createLogger('warn', (line) => io.stderr.write(line + '\n'));
  const clock = systemClock;
  // The same database as the CLI's client; the runner only saves jobs here, it never runs them.
  const databaseUrl = String(poolOf(ctx.db)?.options.connectionString);
  const jobs = await createJobRunner({ databaseUrl, mongoUrl: config.AGENDA_MONGO_URL, processEvery: config.AGENDA_PROCESS_EVERY_MS, logger });
  const services = createServices(config, { db: ctx.db, clock, scheduler: agendaScheduler(jobs.agenda), masterKey: ctx.masterKey, logger });
  try {
    await run(services);
  } finally {
    // Renewals charge cards: their provider attempts are written before the CLI closes the database.
    await services.attempts.drain();
    await jobs.stop();
  }
}

/** Runs an action with the database open; domain errors become one-line CLI errors (exit 1). */
function action<A extends unknown[]>(io: CliIo, run: (ctx: CliContext, ...args: A) => Promise<void>) {
  return withDatabase(io, async (ctx, ...args: A) => {
    try {
      await run(ctx, ...args);
    } catch (err) {
      if (err instanceof DomainError) throw new CliError(domainErrorLine(err));
      throw err;
    }
  });
}

/** How far the workspace's clock is ahead of the gateway's, to the second, e.g. `30d 23h 59m 59s`. */
export function offsetText(offsetMs: bigint): string {
  const d = Duration.fromMillis(Math.round(Number(offsetMs) / 1000) * 1000).shiftTo('days', 'hours', 'minutes', 'seconds');
  return `${d.days}d ${d.hours}h ${d.minutes}m${d.seconds ? ` ${d.seconds}s` : ''}`;
}

const localTime = (at: Date, zone: string) => DateTime.fromJSDate(at, { zone }).toFormat('yyyy-MM-dd HH:mm');

function clockJson(c: TestClock) {
  return { team: c.workspace.slug, mode: c.workspace.mode, time_zone: c.workspace.timeZone, now: c.now.toISOString(), offset_ms: Number(c.offsetMs) };
}

function clockLine(c: TestClock): string {
  return `${c.now.toISOString()} (${localTime(c.now, c.workspace.timeZone)} ${c.workspace.timeZone}), ${offsetText(c.offsetMs)} ahead of the gateway's clock`;
}

function stepJson(s: ClockStep) {
  return { at: s.at.toISOString(), kind: s.kind, token: s.token, outcome: s.outcome };
}

function advanceLines(team: string, duration: string, a: Advance): string[] {
  const steps = a.steps.map((s) => `  ${s.at.toISOString()}  ${s.kind}  ${s.token}  ${s.outcome}`);
  return [
    `Test clock of "${team}" advanced by ${duration}: ${a.from.toISOString()} -> ${clockLine(a.clock)}`,
    ...(steps.length ? [`Ran ${steps.length} due step(s):`, ...steps] : ['Nothing fell due.']),
  ];
}

export function registerTestClockCommands(program: Command, io: CliIo): void {
  const clock = program.command('test-clock').description("Move a test-mode workspace's own clock forward (renewals, ends and 3D expiries that fall due run in order)");

  clock
    .command('show')
    .description("Print a workspace's clock and how far it is ahead of the gateway's")
    .argument('<team>', 'workspace slug')
    .action(
      action(io, async (ctx, team: string) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const c = await showTestClock({ db: ctx.db, clock: systemClock } as Services, workspace);
        ctx.print(clockJson(c), [`Test clock of "${team}" (${workspace.mode} mode): ${clockLine(c)}`]);
      }),
    );

  clock
    .command('advance')
    .description('Advance a test-mode workspace\'s clock, running what falls due meanwhile at the time it was due')
    .argument('<team>', 'workspace slug')
    .argument('<duration>', 'how far: 31d, 12h, 90m, 1y, 1mo15d (y, mo, w, d, h, m, s; at most 10 years)')
    .action(
      action(io, async (ctx, team: string, duration: string) => {
        const workspace = await requireWorkspace(ctx.db, team);
        await withClockServices(ctx, io, async (s) => {
          const a = await advanceTestClock(s, workspace, { duration });
          ctx.print({ ...clockJson(a.clock), from: a.from.toISOString(), steps: a.steps.map(stepJson) }, advanceLines(team, duration, a));
        });
      }),
    );
}
