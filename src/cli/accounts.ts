// `gateway channel …`, `gateway account …` and `gateway routing …`: where a workspace's payments
// come from and which payment account takes them.
import { describePlan, setInstallmentPlan } from '../domain/installment-plan.ts';
import { describeCosts, setAccountCosts, setAccountIssuerCode } from '../domain/routing/cost-settings.ts';
import type { Command } from 'commander';
import type { Mode, PaymentAccount } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import { CURRENCIES, type Currency } from '../domain/money.ts';
import { credentialHints } from '../domain/account-credentials.ts';
import { addPaymentAccount, CAPABILITY_KEYS, updatePaymentAccountConnection } from '../domain/settings.ts';
import { PROVIDER_IDS } from '../providers/catalog.ts';
import {
  addRoutingRule,
  createChannel,
  listRoutingRules,
  removeRoutingRule,
  requireWorkspace,
  setDefaultAccount,
  type AccountCapabilities,
} from '../domain/workspaces.ts';
import { withDatabase, type CliContext, type CliIo } from './context.ts';
import { accountAction } from './account-services.ts';
import { accountJson, accountLine, channelJson, ruleJson, ruleLine } from './format.ts';
import {
  CAPABILITIES,
  CliError,
  collectPair,
  parseBinPrefix,
  parseCapabilities,
  parseCardType,
  parseCurrencies,
  parseCurrency,
  parseId,
  parseMode,
  parseMoney,
  parseProvider,
  parseScheme,
} from './parse.ts';

interface CreateOptions {
  provider?: string;
  credential?: Record<string, string>;
  setting?: Record<string, string>;
  mode?: Mode;
  currencies?: Currency[];
  capabilities?: AccountCapabilities;
  default?: boolean;
}

/** The account's settings and masked credentials, under its token. */
function connectionLines(ctx: CliContext, a: PaymentAccount): string[] {
  const hints = credentialHints(ctx.masterKey, a);
  return [
    `  provider                ${a.provider}`,
    ...Object.entries(a.settings as Record<string, unknown>).map(([k, v]) => `  setting ${k.padEnd(15)} ${String(v)}`),
    ...hints.map((h) => `  credential ${h.name.padEnd(12)} ${h.hint}`),
  ];
}

async function requireAccount(db: Tx, slug: string, token: string) {
  const workspace = await requireWorkspace(db, slug);
  const account = await db.paymentAccount.findFirst({ where: { id: parseId(token, 'payment account token'), workspaceId: workspace.id, deletedAt: null } });
  if (!account) throw new CliError(`No payment account ${token} in "${slug}"`);
  return { workspace, account };
}

export function registerAccountCommands(program: Command, io: CliIo): void {
  const channel = program.command('channel').description("Manage a workspace's channels (channel_token in API calls)");
  channel
    .command('create')
    .description('Create a channel and print its channel_token')
    .argument('<slug>', 'workspace slug')
    .argument('<name>', 'channel name, e.g. "Web shop"')
    .action(
      withDatabase(io, async (ctx, slug: string, name: string) => {
        const c = await createChannel(ctx.db, slug, name);
        ctx.print(channelJson(c), [`Channel "${name}" created in "${slug}".`, `  channel_token  ${c.id}`]);
      }),
    );
  channel
    .command('list')
    .description("List a workspace's channels")
    .argument('<slug>', 'workspace slug')
    .action(
      withDatabase(io, async (ctx, slug: string) => {
        const w = await requireWorkspace(ctx.db, slug);
        const all = await ctx.db.channel.findMany({ where: { workspaceId: w.id }, orderBy: { createdAt: 'asc' } });
        ctx.print(all.map(channelJson), all.length ? all.map((c) => `${c.id}  ${c.name}`) : [`No channels in "${slug}".`]);
      }),
    );

  const account = program.command('account').description("Manage a workspace's payment accounts (payment_provider_token in API calls)");
  account
    .command('create')
    .description('Create a payment account and print its payment_provider_token')
    .argument('<slug>', 'workspace slug')
    .argument('<name>', 'account name, e.g. "Simulator TRY"')
    .option('--provider <provider>', `payment provider: ${PROVIDER_IDS.join(', ')} (default: simulator)`, parseProvider)
    .option('--credential <name=value>', "one of the provider's credentials, e.g. api_key=…; repeat for each (stored encrypted, shown only masked)", collectPair('--credential'))
    .option('--setting <name=value>', "one of the provider's settings, e.g. base_url=https://…; repeat for each", collectPair('--setting'))
    .option('--mode <mode>', "test or live (default: the workspace's mode)", parseMode)
    .option('--currencies <list>', 'comma list of currencies it takes (default: TRY,USD,EUR,GBP)', parseCurrencies)
    .option('--capabilities <list>', `comma list of ${CAPABILITIES.join(', ')}; or all, or none (default: what the provider offers but conversion)`, parseCapabilities)
    .option('--default', "make it the workspace's default account")
    .action(
      accountAction(io, async (ctx, s, slug: string, name: string, opts: CreateOptions) => {
        const w = await requireWorkspace(ctx.db, slug);
        const a = await addPaymentAccount(
          s,
          w,
          {
            name,
            provider: opts.provider,
            currencies: opts.currencies ?? [...CURRENCIES],
            capabilities: opts.capabilities && CAPABILITIES.filter((c) => opts.capabilities![CAPABILITY_KEYS[c]]),
            isDefault: opts.default ?? false,
            credentials: opts.credential,
            settings: opts.setting,
          },
          { mode: opts.mode },
        );
        const defaultId = opts.default ? a.id : null;
        ctx.print(accountJson(a, defaultId, credentialHints(ctx.masterKey, a)), [
          `Payment account "${name}" created in "${slug}"${opts.default ? ' as the default' : ''}.`,
          `  payment_provider_token  ${a.id}`,
          ...connectionLines(ctx, a),
        ]);
      }),
    );
  account
    .command('update')
    .description("Replace a payment account's credentials and/or settings (each as a whole: give every credential the provider needs)")
    .argument('<slug>', 'workspace slug')
    .argument('<token>', 'payment_provider_token of the account')
    .option('--credential <name=value>', 'a new credential; repeat for each (the old ones are replaced, never shown)', collectPair('--credential'))
    .option('--setting <name=value>', 'a new setting; repeat for each (the old settings are replaced)', collectPair('--setting'))
    .action(
      accountAction(io, async (ctx, s, slug: string, token: string, opts: { credential?: Record<string, string>; setting?: Record<string, string> }) => {
        if (!opts.credential && !opts.setting) throw new CliError('Nothing to change: give --credential and/or --setting');
        const { workspace: w } = await requireAccount(ctx.db, slug, token);
        const a = await updatePaymentAccountConnection(s, w, token, { credentials: opts.credential, settings: opts.setting });
        ctx.print(accountJson(a, w.defaultPaymentAccountId, credentialHints(ctx.masterKey, a)), [`Payment account ${a.id} of "${slug}" updated.`, ...connectionLines(ctx, a)]);
      }),
    );
  account
    .command('installments')
    .description("Set a payment account's installment plan: the counts offered with their surcharge, and the card programs allowed (banks' virtual POS do not quote rates)")
    .argument('<slug>', 'workspace slug')
    .argument('<token>', 'payment_provider_token of the account')
    .option('--rate <count=percent>', 'an installment count offered (2-12) and its total surcharge in percent, e.g. 3=4.5; repeat for each (none: every count at the default rates)', collectPair('--rate'))
    .option('--program <name>', 'a card program that may pay in installments, e.g. Bonus; repeat for each (none: any card)', (v: string, all: string[] = []) => [...all, v])
    .action(
      accountAction(io, async (ctx, s, slug: string, token: string, opts: { rate?: Record<string, string>; program?: string[] }) => {
        const { workspace: w } = await requireAccount(ctx.db, slug, token);
        const a = await setInstallmentPlan(s, w, token, { rates: opts.rate ?? null, programs: opts.program ?? null });
        const plan = describePlan(a);
        const counts = plan.counts.length ? plan.counts.map((n) => `${n}=${plan.rates[String(n)]}%`).join(' ') : 'every count, default rates';
        ctx.print({ payment_provider_token: a.id, installments: plan }, [`Installments of ${a.id}: ${counts}; programs: ${plan.programs.join(', ') || 'any card'}.`]);
      }),
    );
  account
    .command('costs')
    .description("Set what a payment account costs per payment (routing prefers the cheapest): a commission per installment count, for a card program and on-us / not-on-us cards or any, plus a fixed fee")
    .argument('<slug>', 'workspace slug')
    .argument('<token>', 'payment_provider_token of the account')
    .option('--rate <count=percent>', 'an installment count (1-12) and its commission in percent, e.g. 1=1.79; repeat for each (none: removes this table)', collectPair('--rate'))
    .option('--program <name>', 'the card program this table prices, e.g. Bonus (none: any program)')
    .option('--on-us', "for cards of the account's own bank (account issuer)")
    .option('--not-on-us', "for cards of other banks than the account's own")
    .option('--fixed <amount>', 'a fixed fee per payment in the payment currency, e.g. 0.25')
    .action(
      accountAction(io, async (ctx, s, slug: string, token: string, opts: { rate?: Record<string, string>; program?: string; onUs?: boolean; notOnUs?: boolean; fixed?: string }) => {
        if (opts.onUs && opts.notOnUs) throw new CliError('--on-us and --not-on-us exclude each other');
        const { workspace: w } = await requireAccount(ctx.db, slug, token);
        const cards = opts.onUs ? 'on_us' : opts.notOnUs ? 'not_on_us' : 'any';
        const a = await setAccountCosts(s, w, token, { rates: opts.rate ?? null, program: opts.program ?? null, cards, fixedFee: opts.fixed ?? null });
        const tables = describeCosts(a.costs);
        const lines = tables.map((t) => `  ${t.program ?? 'any program'}, ${t.cards} cards: ${Object.entries(t.rates).map(([n, r]) => `${n}=${r}%`).join(' ')} + ${t.fixedFee}`);
        ctx.print({ payment_provider_token: a.id, issuer_code: a.issuerCode, costs: tables }, [`Costs of ${a.id}:`, ...(lines.length ? lines : ['  none (unknown cost: routed after priced accounts)'])]);
      }),
    );
  account
    .command('issuer')
    .description("Set a bank account's own issuer code (BIN issuer code): its cards are on-us for cost tables")
    .argument('<slug>', 'workspace slug')
    .argument('<token>', 'payment_provider_token of the account')
    .argument('<code>', 'the issuer code, e.g. 0062, or none to clear it')
    .action(
      accountAction(io, async (ctx, s, slug: string, token: string, code: string) => {
        const { workspace: w } = await requireAccount(ctx.db, slug, token);
        const a = await setAccountIssuerCode(s, w, token, { issuerCode: code === 'none' ? null : code });
        ctx.print({ payment_provider_token: a.id, issuer_code: a.issuerCode }, [`Issuer code of ${a.id}: ${a.issuerCode ?? 'none'}.`]);
      }),
    );
  account
    .command('list')
    .description("List a workspace's payment accounts (credentials masked)")
    .argument('<slug>', 'workspace slug')
    .action(
      withDatabase(io, async (ctx, slug: string) => {
        const w = await requireWorkspace(ctx.db, slug);
        const all = await ctx.db.paymentAccount.findMany({ where: { workspaceId: w.id, deletedAt: null }, orderBy: { createdAt: 'asc' } });
        const d = w.defaultPaymentAccountId;
        const shown = all.map((a) => ({ a, hints: credentialHints(ctx.masterKey, a) }));
        ctx.print(
          shown.map(({ a, hints }) => accountJson(a, d, hints)),
          all.length ? shown.map(({ a, hints }) => accountLine(a, d, hints)) : [`No payment accounts in "${slug}".`],
        );
      }),
    );
  account
    .command('default')
    .description('Make a payment account the default (used when no routing rule matches)')
    .argument('<slug>', 'workspace slug')
    .argument('<token>', 'payment_provider_token of the account')
    .action(
      withDatabase(io, async (ctx, slug: string, token: string) => {
        const { account: a } = await requireAccount(ctx.db, slug, token);
        await setDefaultAccount(ctx.db, slug, a.id);
        ctx.print(accountJson(a, a.id, credentialHints(ctx.masterKey, a)), [`Payment account ${a.id} is now the default of "${slug}".`]);
      }),
    );

  const routing = program.command('routing').description("Manage a workspace's routing rules: the accounts of every rule a card matches are its candidates, the cheapest first, equal costs in rule order");
  routing
    .command('add')
    .description('Append a rule; every condition given must hold for a payment to match it')
    .argument('<slug>', 'workspace slug')
    .requiredOption('--account <token>', 'payment_provider_token of the account the rule makes a candidate')
    .option('--scheme <scheme>', 'card scheme, e.g. visa, mastercard, troy', parseScheme)
    .option('--card-type <type>', 'credit, debit or prepaid', parseCardType)
    .option('--bin-prefix <digits>', 'the card number starts with these digits (1-8)', parseBinPrefix)
    .option('--issuer-code <code>', 'issuing bank code, e.g. 0001')
    .option('--currency <currency>', 'payment currency', parseCurrency)
    .option('--min-amount <amount>', 'smallest amount, e.g. 10.00', (v) => parseMoney(v, '--min-amount'))
    .option('--max-amount <amount>', 'largest amount, e.g. 5000.00', (v) => parseMoney(v, '--max-amount'))
    .option('--program <name>', 'card program of the BIN, as the BIN lookup names it, e.g. "Simülasyon Bonus" (the simulator\'s Visa credit cards)')
    .option('--weight <n>', 'share of volume (1-1000) among consecutive weighted rules; equal-cost matches are split by it', parseWeight)
    .hook('preAction', (command) => {
      const { minAmount, maxAmount } = command.opts<{ minAmount?: bigint; maxAmount?: bigint }>();
      if (minAmount !== undefined && maxAmount !== undefined && minAmount > maxAmount) throw new CliError('--min-amount is above --max-amount');
    })
    .action(
      withDatabase(
        io,
        async (
          ctx,
          slug: string,
          opts: { account: string; scheme?: string; cardType?: string; binPrefix?: string; issuerCode?: string; currency?: Currency; minAmount?: bigint; maxAmount?: bigint; program?: string; weight?: number },
        ) => {
          const { account: a } = await requireAccount(ctx.db, slug, opts.account);
          const { account: _account, ...conditions } = opts;
          const rule = await addRoutingRule(ctx.db, slug, { paymentAccountId: a.id, ...conditions });
          ctx.print(ruleJson(rule), [`Routing rule added to "${slug}":`, `  ${ruleLine(rule)}`]);
        },
      ),
    );
  routing
    .command('list')
    .description("List a workspace's routing rules in their order (the order equal-cost accounts are tried in)")
    .argument('<slug>', 'workspace slug')
    .action(
      withDatabase(io, async (ctx, slug: string) => {
        const rules = await listRoutingRules(ctx.db, slug);
        ctx.print(rules.map(ruleJson), rules.length ? rules.map(ruleLine) : [`No routing rules in "${slug}"; payments go to the default account.`]);
      }),
    );
  routing
    .command('remove')
    .description('Remove a routing rule')
    .argument('<slug>', 'workspace slug')
    .argument('<rule-id>', 'the rule id shown by routing list', (v) => parseId(v, 'routing rule id'))
    .action(
      withDatabase(io, async (ctx, slug: string, ruleId: string) => {
        await removeRoutingRule(ctx.db, slug, ruleId);
        ctx.print({ removed: ruleId }, [`Routing rule ${ruleId} removed from "${slug}".`]);
      }),
    );
}

function parseWeight(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 1000) throw new CliError('--weight must be a whole number from 1 to 1000');
  return n;
}
