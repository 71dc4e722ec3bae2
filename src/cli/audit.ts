// A change made with the CLI is an audit entry like the same change made in the dashboard: the
// same operation name (saveRiskRule, addRiskListEntry, ...) and arguments, so the Audit screen and
// its filter show both. The CLI has no token and no signed-in person: whoever runs it holds the
// database's credentials and can do all an owner can, so the entry is an owner's, named after the
// operating-system account and machine it ran on (`cli: deploy@gw-1`), with no token id. As in
// the dashboard, the entry follows the change and a failed write does not undo it; the operator
// is told on stderr.
import os from 'node:os';
import type { Command } from 'commander';
import { recordAudit } from '../domain/audit.ts';
import type { CliContext, CliIo } from './io.ts';

/**
 * The CLI's writes and the operation each is recorded as: the GraphQL mutation that makes the same
 * change, or, for what only the CLI changes, a name of its own (the dashboard's operation labels
 * name those too). Recorded by `withDatabase` after the command succeeded, with its arguments and
 * options as the variables (scrubbed like every entry's: credentials never reach the trail). The
 * risk commands record their entries themselves, with the GraphQL input they built.
 */
export const CLI_OPERATIONS: Readonly<Record<string, string>> = {
  'workspace create': 'createWorkspace',
  'workspace plan': 'setWorkspacePlan',
  'workspace time-zone': 'setWorkspaceTimeZone',
  'workspace limits': 'setRateLimits',
  'workspace settings': 'setWorkspaceSettings',
  'workspace checkout': 'setCheckoutSettings',
  'workspace resilience': 'setRoutingResilience',
  'workspace rotate-key': 'rotateApiCredentials',
  'channel create': 'createChannel',
  'account create': 'createPaymentAccount',
  'account update': 'updatePaymentAccountConnection',
  'account installments': 'setInstallmentPlan',
  'account costs': 'setAccountCosts',
  'account issuer': 'setAccountIssuerCode',
  'account default': 'setDefaultPaymentAccount',
  'routing add': 'addRoutingRule',
  'routing remove': 'removeRoutingRule',
  'token create': 'createAccessToken',
  'token revoke': 'revokeAccessToken',
  'webhooks add': 'addWebhookAddress',
  'webhooks rotate-secret': 'rotateWebhookSecret',
  'webhooks test': 'sendTestWebhook',
  'webhooks delete': 'deleteWebhookAddress',
  'member invite': 'inviteMember',
  'member role': 'changeMemberRole',
  'member remove': 'removeMember',
  'test-clock advance': 'advanceTestClock',
};

/** A command's path below the program: `account create`. */
const pathOf = (command: Command): string => {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
};

/**
 * Records a successful write command (CLI_OPERATIONS) on the workspace its first argument or
 * `--workspace` names (none: a support token, recorded with no workspace). Options named in the
 * singular (`--credential`) are kept under the GraphQL input's plural name, which the scrub drops.
 */
export async function auditCommand(ctx: CliContext, io: CliIo, command: Command): Promise<void> {
  const operation = CLI_OPERATIONS[pathOf(command)];
  if (!operation) return;
  const { json: _json, credential, ...options } = command.opts<Record<string, unknown>>();
  const args = Object.fromEntries(command.registeredArguments.map((a, i) => [a.name(), command.processedArgs[i] ?? null]));
  const slug = (options.workspace ?? Object.values(args).find((v) => typeof v === 'string')) as string | undefined;
  const workspace = slug ? await ctx.db.workspace.findUnique({ where: { slug }, select: { id: true } }) : null;
  if (slug && !workspace) return;
  const variables = { ...args, ...options, ...(credential !== undefined ? { credentials: credential } : {}) };
  await auditCliChange(ctx, io, workspace?.id ?? null, operation, JSON.parse(JSON.stringify(variables, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))));
}

/** Who ran the CLI: the operating-system account (USER, else the process's own) and the host. */
export function cliActor(env: Record<string, string | undefined>): string {
  let user = env.USER || env.LOGNAME || '';
  if (!user) {
    try {
      user = os.userInfo().username;
    } catch {
      // A container user with no passwd entry has no name, only a number.
      user = `uid ${process.getuid?.() ?? '?'}`;
    }
  }
  return `cli: ${user}@${os.hostname()}`;
}

export async function auditCliChange(ctx: CliContext, io: CliIo, workspaceId: string | null, operation: string, variables: unknown): Promise<void> {
  try {
    await recordAudit(ctx.db, { workspaceId, token: { id: null, name: cliActor(io.env), role: 'owner' }, operation, outcome: 'done', variables, at: new Date() });
  } catch (err) {
    io.stderr.write(`warning: the change was made but its audit entry was not written: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
