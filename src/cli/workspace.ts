// `gateway workspace …`: create, list, suspend/activate, plan, time zone, request limits, API settings, hosted-page settings, key rotation.
import type { Command } from 'commander';
import type { Mode } from '../generated/prisma/client.ts';
import {
  ALL_FEATURES,
  createChannel,
  createPaymentAccount,
  createWorkspace,
  requireWorkspace,
  rotateCredentials,
  setPlan,
  setRateLimits,
  setUnknownKeys,
  UNKNOWN_KEYS,
  unknownKeysOf,
  updateWorkspace,
  type Credentials,
  type PlanSettings,
  type UnknownKeys,
} from '../domain/workspaces.ts';
import { withDatabase, type CliContext, type CliIo } from './context.ts';
import { planNames, workspaceJson, workspaceLine } from './format.ts';
import { setBinSource } from '../domain/settings.ts';
import { RESILIENCE_RANGES, setResilienceSettings } from '../domain/routing/settings.ts';
import { setGuardSettings } from '../domain/risk/settings.ts';
import { setCheckoutSettings } from '../domain/checkout-settings.ts';
import { accountAction } from './account-services.ts';
import { CliError, PLAN_FEATURES, parseId, parseLimit, parseMode, parsePlan, parseSlug, parseTimeZone } from './parse.ts';

const FEATURES_HELP = `comma list of ${PLAN_FEATURES.join(', ')}; or all, or none`;

function parseBinSource(text: string): string {
  return text === 'default' ? text : parseId(text, 'payment account token');
}

function parseOnOff(text: string): boolean {
  if (text === 'on' || text === 'off') return text === 'on';
  throw new CliError(`Unknown value "${text}" for --risk-guard (expected on or off)`);
}

/** The card-testing guard's flags of `workspace settings`, each to its workspace setting (src/domain/risk/settings.ts). */
const GUARD_FLAGS = {
  riskWindow: 'riskWindowSeconds',
  riskCooldown: 'riskCooldownSeconds',
  riskIpCards: 'riskIpCards',
  riskIpCards3ds: 'riskIpCardsFor3ds',
  riskIpDeclines: 'riskIpDeclines',
  riskTargetDeclines: 'riskTargetDeclines',
  riskWorkspaceDeclines: 'riskWorkspaceDeclines',
} as const;

function parseUnknownKeys(text: string): UnknownKeys {
  const policy = UNKNOWN_KEYS.find((p) => p === text);
  if (!policy) throw new CliError(`Unknown value "${text}" for --unknown-keys (expected ${UNKNOWN_KEYS.join(' or ')})`);
  return policy;
}

interface SetUp {
  channelToken: string;
  accountToken: string;
}

function printCredentials(ctx: CliContext, slug: string, credentials: Credentials, headline: string, extra: object = {}, setUp?: SetUp): void {
  const tokens = setUp ? { channel_token: setUp.channelToken, payment_provider_token: setUp.accountToken } : {};
  ctx.print({ team: slug, api_key: credentials.apiKey, api_secret: credentials.apiSecret, ...tokens, ...extra }, [
    headline,
    'The secret is shown only this once; store it now.',
    `  team                    ${slug}`,
    `  api_key                 ${credentials.apiKey}`,
    `  api_secret              ${credentials.apiSecret}`,
    ...(setUp ? [`  channel_token           ${setUp.channelToken}`, `  payment_provider_token  ${setUp.accountToken}  (simulator, default)`] : []),
  ]);
}

export function registerWorkspaceCommands(program: Command, io: CliIo): void {
  const workspace = program.command('workspace').description('Create and manage workspaces (a merchant, {team} in API paths)');

  workspace
    .command('create')
    .description('Create a workspace ready to take payments: a channel, a simulator account as default and an API key; prints them (the secret once)')
    .argument('<slug>', 'the workspace slug used as {team} in /api/{team}/gateway/...', parseSlug)
    .option('--name <name>', 'display name (default: the slug)')
    .option('--time-zone <tz>', 'IANA time zone that decides "days" (default: Europe/Istanbul)', parseTimeZone)
    .option('--mode <mode>', 'test or live (default: test)', parseMode)
    .option('--plan <features>', `features the plan covers: ${FEATURES_HELP} (default: all)`, parsePlan)
    .option('--channel <name>', 'name of its first channel', 'Web')
    .option('--bare', 'the workspace and its key only: no channel, no payment account')
    .action(
      withDatabase(io, async (ctx, slug: string, opts: { name?: string; timeZone?: string; mode?: Mode; plan?: PlanSettings; channel: string; bare?: boolean }) => {
        if (await ctx.db.workspace.findUnique({ where: { slug } })) throw new CliError(`Workspace "${slug}" already exists`);
        const { workspace: created, credentials } = await createWorkspace(ctx.db, ctx.masterKey, { slug, name: opts.name, timeZone: opts.timeZone, mode: opts.mode, plan: opts.plan ?? ALL_FEATURES });
        let setUp: SetUp | undefined;
        if (!opts.bare) {
          const channel = await createChannel(ctx.db, slug, opts.channel);
          const account = await createPaymentAccount(ctx.db, slug, { name: 'Simulator', mode: created.mode, isDefault: true });
          setUp = { channelToken: channel.id, accountToken: account.id };
        }
        const w = await requireWorkspace(ctx.db, slug);
        printCredentials(ctx, slug, credentials, `Workspace "${slug}" created (${w.mode} mode, ${w.timeZone}, plan: ${planNames(w).join(',') || 'none'}).`, {
          workspace: workspaceJson(w),
        }, setUp);
      }),
    );

  workspace
    .command('list')
    .description('List every workspace')
    .action(
      withDatabase(io, async (ctx) => {
        const all = await ctx.db.workspace.findMany({ orderBy: { createdAt: 'asc' } });
        ctx.print(all.map(workspaceJson), all.length ? all.map(workspaceLine) : ['No workspaces yet.']);
      }),
    );

  for (const [name, active, description] of [
    ['suspend', false, 'Suspend a workspace: its API calls answer 403 until it is activated again'],
    ['activate', true, 'Activate a suspended workspace'],
  ] as const) {
    workspace
      .command(name)
      .description(description)
      .argument('<slug>', 'workspace slug')
      .action(
        withDatabase(io, async (ctx, slug: string) => {
          await requireWorkspace(ctx.db, slug);
          const w = await updateWorkspace(ctx.db, slug, { active });
          ctx.print(workspaceJson(w), [`Workspace "${slug}" is now ${active ? 'active' : 'suspended'}.`]);
        }),
      );
  }

  workspace
    .command('plan')
    .description("Set which features the workspace's plan covers (features not listed are turned off)")
    .argument('<slug>', 'workspace slug')
    .argument('<features>', FEATURES_HELP, parsePlan)
    .action(
      withDatabase(io, async (ctx, slug: string, plan: PlanSettings) => {
        await requireWorkspace(ctx.db, slug);
        const w = await setPlan(ctx.db, slug, plan);
        ctx.print(workspaceJson(w), [`Workspace "${slug}" plan: ${planNames(w).join(',') || 'none'}.`]);
      }),
    );

  workspace
    .command('time-zone')
    .description('Set the time zone that decides the workspace\'s "days" (an IANA name)')
    .argument('<slug>', 'workspace slug')
    .argument('<tz>', 'IANA time zone, e.g. Europe/Istanbul', parseTimeZone)
    .action(
      withDatabase(io, async (ctx, slug: string, timeZone: string) => {
        await requireWorkspace(ctx.db, slug);
        const w = await updateWorkspace(ctx.db, slug, { timeZone });
        ctx.print(workspaceJson(w), [`Workspace "${slug}" time zone: ${w.timeZone}.`]);
      }),
    );

  workspace
    .command('limits')
    .description("Show or set the workspace's own request limits (429); without options, shows them")
    .argument('<slug>', 'workspace slug')
    .option('--per-second <n>', 'requests per second over every operation: a number, 0 for no limit, or default (RATE_LIMIT_PER_SECOND)', parseLimit)
    .option('--links-per-minute <n>', 'requests per minute on the payment-link operations: a number, 0 for no limit, or default (RATE_LIMIT_LINKS_PER_MINUTE)', parseLimit)
    .action(
      withDatabase(io, async (ctx, slug: string, opts: { perSecond?: number | 'default'; linksPerMinute?: number | 'default' }) => {
        await requireWorkspace(ctx.db, slug);
        const own = (v: number | 'default' | undefined) => (v === 'default' ? null : v);
        const changing = opts.perSecond !== undefined || opts.linksPerMinute !== undefined;
        const w = changing ? await setRateLimits(ctx.db, slug, { perSecond: own(opts.perSecond), linksPerMinute: own(opts.linksPerMinute) }) : await requireWorkspace(ctx.db, slug);
        const shown = (own: number | null, setting: number) => (own === null ? `${setting} (gateway setting)` : own === 0 ? 'no limit' : String(own));
        ctx.print({ team: slug, per_second: w.rateLimitPerSecond, links_per_minute: w.rateLimitLinksPerMinute }, [
          `Workspace "${slug}" request limits:`,
          `  per second (every operation)     ${shown(w.rateLimitPerSecond, ctx.config.RATE_LIMIT_PER_SECOND)}`,
          `  per minute (payment-link calls)  ${shown(w.rateLimitLinksPerMinute, ctx.config.RATE_LIMIT_LINKS_PER_MINUTE)}`,
        ]);
      }),
    );

  workspace
    .command('settings')
    .description("Show or set how the workspace's REST calls are read and where its BIN facts come from; without options, shows the settings")
    .argument('<slug>', 'workspace slug')
    .option(
      '--unknown-keys <policy>',
      'a body key the operation does not know: reject (422, the default) or ignore (dropped; a key the operation knows elsewhere in the body is still refused)',
      parseUnknownKeys,
    )
    .option('--bin-source <token|default>', "the payment account whose provider answers BIN lookups (payment_provider_token), or default (the default account's)", parseBinSource)
    .option('--risk-guard <on|off>', 'the card-testing guard (on by default)', parseOnOff)
    .option('--risk-window <seconds>', 'the window the guard counts attempts in (60-86400, default 600)', Number)
    .option('--risk-cooldown <seconds>', 'how long a blocked source stays blocked (60-86400, default 1800)', Number)
    .option('--risk-ip-cards <n>', 'distinct cards from one address within the window that block (0-1000, default 5; 0: off)', Number)
    .option('--risk-ip-cards-3ds <n>', 'distinct cards from one address that require 3-D Secure (0-1000, default 3; 0: off)', Number)
    .option('--risk-ip-declines <n>', 'bank refusals from one address within the window that block the next (0-1000, default 4; 0: off)', Number)
    .option('--risk-target-declines <n>', 'bank refusals on one link or page within the window that block the next (0-100000, default 25; 0: off)', Number)
    .option('--risk-workspace-declines <n>', 'bank refusals in the workspace within the window that block the next (0-1000000, default 200; 0: off)', Number)
    .action(
      accountAction(io, async (ctx, s, slug: string, opts: { unknownKeys?: UnknownKeys; binSource?: string; riskGuard?: boolean } & Partial<Record<keyof typeof GUARD_FLAGS, number>>) => {
        await requireWorkspace(ctx.db, slug);
        if (opts.unknownKeys) await setUnknownKeys(ctx.db, slug, opts.unknownKeys);
        if (opts.binSource) await setBinSource(s, await requireWorkspace(ctx.db, slug), opts.binSource === 'default' ? null : opts.binSource);
        const guard = Object.fromEntries(Object.entries(GUARD_FLAGS).map(([flag, setting]) => [setting, opts[flag as keyof typeof GUARD_FLAGS]]));
        await setGuardSettings(s, await requireWorkspace(ctx.db, slug), { riskGuard: opts.riskGuard, ...guard });
        const w = await requireWorkspace(ctx.db, slug);
        const guardJson = { risk_guard: w.riskGuard, ...Object.fromEntries(Object.values(GUARD_FLAGS).map((setting) => [setting.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), w[setting]])) };
        ctx.print({ team: slug, unknown_keys: unknownKeysOf(w), bin_source: w.binSourceAccountId, ...guardJson }, [
          `Workspace "${slug}" settings:`,
          `  unknown keys  ${unknownKeysOf(w)}`,
          `  BIN source    ${w.binSourceAccountId ?? 'the default account'}`,
          `  risk guard    ${w.riskGuard ? 'on' : 'off'}: within ${w.riskWindowSeconds} s, blocks an address at ${w.riskIpCards} cards or ${w.riskIpDeclines} declines (3-D Secure from ${w.riskIpCardsFor3ds} cards),`,
          `                a link or page at ${w.riskTargetDeclines} declines, the workspace at ${w.riskWorkspaceDeclines}; blocked for ${w.riskCooldownSeconds} s`,
        ]);
      }),
    );

  workspace
    .command('checkout')
    .description("Show or set the hosted pages' logo and colour and the origins whose pages may frame them (embedded checkout); without options, shows them")
    .argument('<slug>', 'workspace slug')
    .option('--logo-url <url>', "an https address of the logo; '' for none")
    .option('--brand-color <#rrggbb>', "the pages' colour; '' for the gateway's")
    .option('--embed-origins <list>', "comma list of https://host[:port] (http://localhost:port and http://127.0.0.1:port for development); '' for none")
    .action(
      accountAction(io, async (ctx, s, slug: string, opts: { logoUrl?: string; brandColor?: string; embedOrigins?: string }) => {
        const origins = opts.embedOrigins === undefined ? undefined : opts.embedOrigins.split(',').map((o) => o.trim()).filter(Boolean);
        const w = await setCheckoutSettings(s, await requireWorkspace(ctx.db, slug), { logoUrl: opts.logoUrl, brandColor: opts.brandColor, embedOrigins: origins });
        ctx.print({ team: slug, logo_url: w.brandLogoUrl, brand_color: w.brandColor, embed_origins: w.embedOrigins }, [
          `Workspace "${slug}" hosted pages:`,
          `  logo           ${w.brandLogoUrl ?? 'none'}`,
          `  colour         ${w.brandColor ?? "the gateway's"}`,
          `  framed by      ${w.embedOrigins.length ? w.embedOrigins.join(', ') : 'no page (X-Frame-Options: DENY)'}`,
        ]);
      }),
    );

  workspace
    .command('resilience')
    .description('Show or set how payments survive a failing provider: the cascade to other accounts and the account health thresholds; without options, shows them')
    .argument('<slug>', 'workspace slug')
    .option('--cascade <n>', 'more accounts a payment may try after a technical failure (0-5; 0: none)', Number)
    .option('--health-window <seconds>', "the window of an account's recent calls health judges (10-3600)", Number)
    .option('--health-min-failures <n>', 'technical failures in the window that take an account out of routing (1-1000)', Number)
    .option('--health-failure-percent <n>', "the share of the window's calls that must have failed (1-100)", Number)
    .option('--health-cooldown <seconds>', 'how long a degraded account stays out of routing (5-3600)', Number)
    .option('--health-probes <n>', 'successful payments after the cool-down before it is healthy again (1-100)', Number)
    .action(
      accountAction(io, async (ctx, s, slug: string, opts: Record<string, number | undefined>) => {
        const change = {
          cascadeExtraAttempts: opts.cascade,
          healthWindowSeconds: opts.healthWindow,
          healthMinFailures: opts.healthMinFailures,
          healthFailurePercent: opts.healthFailurePercent,
          healthCooldownSeconds: opts.healthCooldown,
          healthProbePayments: opts.healthProbes,
        };
        const w = await setResilienceSettings(s, await requireWorkspace(ctx.db, slug), change);
        const settings = Object.fromEntries(Object.keys(RESILIENCE_RANGES).map((key) => [key, w[key as keyof typeof RESILIENCE_RANGES]]));
        ctx.print({ team: slug, ...settings }, [
          `Workspace "${slug}" resilience:`,
          `  cascade             ${w.cascadeExtraAttempts} more account(s) after a technical failure`,
          `  out of routing at   ${w.healthMinFailures} technical failures and ${w.healthFailurePercent}% of the calls within ${w.healthWindowSeconds} s`,
          `  cool-down           ${w.healthCooldownSeconds} s, then ${w.healthProbePayments} successful payment(s) on probation`,
        ]);
      }),
    );

  workspace
    .command('rotate-key')
    .description('Revoke the API key and secret and print new ones (the old key stops working at once)')
    .argument('<slug>', 'workspace slug')
    .action(
      withDatabase(io, async (ctx, slug: string) => {
        const credentials = await rotateCredentials(ctx.db, ctx.masterKey, slug);
        printCredentials(ctx, slug, credentials, `Workspace "${slug}" has a new API key; the old one is revoked.`);
      }),
    );
}
