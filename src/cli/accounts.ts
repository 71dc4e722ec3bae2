// `gateway channel …`, `gateway account …` and `gateway routing …`: where a workspace's payments
// come from and which payment account takes them.
import type { Command } from 'commander';
import type { Mode } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import type { Currency } from '../domain/money.ts';
import {
  addRoutingRule,
  createChannel,
  createPaymentAccount,
  listRoutingRules,
  removeRoutingRule,
  requireWorkspace,
  setDefaultAccount,
  type AccountCapabilities,
} from '../domain/workspaces.ts';
import { withDatabase, type CliIo } from './context.ts';
import { accountJson, accountLine, channelJson, ruleJson, ruleLine } from './format.ts';
import {
  CAPABILITIES,
  CliError,
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
    .option('--provider <provider>', 'payment provider (default: simulator)', parseProvider)
    .option('--mode <mode>', "test or live (default: the workspace's mode)", parseMode)
    .option('--currencies <list>', 'comma list of currencies it takes (default: TRY,USD,EUR,GBP)', parseCurrencies)
    .option('--capabilities <list>', `comma list of ${CAPABILITIES.join(', ')}; or all, or none (default: all but conversion)`, parseCapabilities)
    .option('--default', "make it the workspace's default account")
    .action(
      withDatabase(
        io,
        async (ctx, slug: string, name: string, opts: { provider?: string; mode?: Mode; currencies?: Currency[]; capabilities?: AccountCapabilities; default?: boolean }) => {
          const a = await createPaymentAccount(ctx.db, slug, { name, provider: opts.provider, mode: opts.mode, currencies: opts.currencies, capabilities: opts.capabilities, isDefault: opts.default });
          const defaultId = opts.default ? a.id : null;
          ctx.print(accountJson(a, defaultId), [`Payment account "${name}" created in "${slug}"${opts.default ? ' as the default' : ''}.`, `  payment_provider_token  ${a.id}`]);
        },
      ),
    );
  account
    .command('list')
    .description("List a workspace's payment accounts")
    .argument('<slug>', 'workspace slug')
    .action(
      withDatabase(io, async (ctx, slug: string) => {
        const w = await requireWorkspace(ctx.db, slug);
        const all = await ctx.db.paymentAccount.findMany({ where: { workspaceId: w.id, deletedAt: null }, orderBy: { createdAt: 'asc' } });
        const d = w.defaultPaymentAccountId;
        ctx.print(all.map((a) => accountJson(a, d)), all.length ? all.map((a) => accountLine(a, d)) : [`No payment accounts in "${slug}".`]);
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
        ctx.print(accountJson(a, a.id), [`Payment account ${a.id} is now the default of "${slug}".`]);
      }),
    );

  const routing = program.command('routing').description("Manage a workspace's routing rules (in order; the first match picks the account)");
  routing
    .command('add')
    .description('Append a rule; every condition given must hold for a payment to match it')
    .argument('<slug>', 'workspace slug')
    .requiredOption('--account <token>', 'payment_provider_token of the account the rule picks')
    .option('--scheme <scheme>', 'card scheme, e.g. visa, mastercard, troy', parseScheme)
    .option('--card-type <type>', 'credit, debit or prepaid', parseCardType)
    .option('--bin-prefix <digits>', 'the card number starts with these digits (1-8)', parseBinPrefix)
    .option('--issuer-code <code>', 'issuing bank code, e.g. 0001')
    .option('--currency <currency>', 'payment currency', parseCurrency)
    .option('--min-amount <amount>', 'smallest amount, e.g. 10.00', (v) => parseMoney(v, '--min-amount'))
    .option('--max-amount <amount>', 'largest amount, e.g. 5000.00', (v) => parseMoney(v, '--max-amount'))
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
          opts: { account: string; scheme?: string; cardType?: string; binPrefix?: string; issuerCode?: string; currency?: Currency; minAmount?: bigint; maxAmount?: bigint },
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
    .description("List a workspace's routing rules in the order they are tried")
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
