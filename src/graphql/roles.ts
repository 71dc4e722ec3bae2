// Who may change what: one table from every mutation to the dashboard roles allowed to call it,
// and the few fields only some roles may read. The roles plugin (role-plugin.ts) applies both to
// every field of the schema, so a resolver never checks a role itself. A mutation missing from
// the table is refused to everyone (test/graphql/roles.test.ts keeps the table complete).
//
// owner      everything, and manages the workspace's members and tokens
// developer  API keys, webhooks, channels, the test clock, the risk guard, the hosted pages' brand and framing; reads
// operator   refunds, cancels, payment links, products, saved cards; reads
// viewer     reads only
// Merchants (REST, signed with the API secret) act for the whole workspace: every mutation in the
// table. Support tokens change nothing.
import { GraphQLError } from 'graphql';
import type { WorkspaceRole } from '../domain/access-tokens.ts';
import { message } from '../domain/messages.ts';
import type { GraphQLContext } from './context.ts';

const OWNER: readonly WorkspaceRole[] = ['owner'];
const DEVELOPER: readonly WorkspaceRole[] = ['owner', 'developer'];
const OPERATOR: readonly WorkspaceRole[] = ['owner', 'operator'];
/** Every role, and callers without a sign-in (the resolver needs a link's token or a person's session). */
const ANYONE: readonly WorkspaceRole[] = ['owner', 'developer', 'operator', 'viewer'];

export const MUTATION_ROLES: Readonly<Record<string, readonly WorkspaceRole[]>> = {
  // Taking card payments and storing cards is the merchant's server's work (card data in the input).
  securePayment: OWNER,
  regularPayment: OWNER,
  orderPayment: OWNER,
  subscriptionPayment: OWNER,
  saveCard: OWNER,
  // Money back and after-sales.
  refundPayment: OPERATOR,
  cancelPayment: OPERATOR,
  cancelSubscription: OPERATOR,
  createPaymentLink: OPERATOR,
  updatePaymentLink: OPERATOR,
  saveProduct: OPERATOR,
  deleteSavedCard: OPERATOR,
  defaultSavedCard: OPERATOR,
  // Integration: keys, webhooks, channels, how the API treats input, the test clock.
  rotateApiCredentials: DEVELOPER,
  addWebhookAddress: DEVELOPER,
  deleteWebhookAddress: DEVELOPER,
  disableWebhookAddress: DEVELOPER,
  enableWebhookAddress: DEVELOPER,
  setWebhookEvents: DEVELOPER,
  rotateWebhookSecret: DEVELOPER,
  sendTestWebhook: DEVELOPER,
  resendNotification: DEVELOPER,
  createChannel: DEVELOPER,
  setUnknownKeys: DEVELOPER,
  // The hosted pages' brand and the pages that may frame them (who may embed the checkout).
  setCheckoutSettings: DEVELOPER,
  advanceTestClock: DEVELOPER,
  // Risk: the card-testing guard's switch and thresholds, the block and allow lists, the merchant's rules (operators and viewers read them).
  setRiskGuard: DEVELOPER,
  addRiskListEntry: DEVELOPER,
  removeRiskListEntry: DEVELOPER,
  saveRiskRule: DEVELOPER,
  removeRiskRule: DEVELOPER,
  // Where the money goes: accounts, routing, costs, installments, mode.
  createPaymentAccount: OWNER,
  updatePaymentAccountConnection: OWNER,
  setDefaultPaymentAccount: OWNER,
  setAccountCosts: OWNER,
  setAccountIssuerCode: OWNER,
  setInstallmentPlan: OWNER,
  setBinSource: OWNER,
  addRoutingRule: OWNER,
  removeRoutingRule: OWNER,
  setRoutingResilience: OWNER,
  setWorkspaceMode: OWNER,
  // Tokens: for machines (GraphiQL, automation); a token's role is at most its creator's.
  createAccessToken: ['owner', 'developer', 'operator'],
  revokeAccessToken: OWNER,
  // People: the team, and what a link or a person's own session allows.
  inviteMember: OWNER,
  resendInvitation: OWNER,
  cancelInvitation: OWNER,
  changeMemberRole: OWNER,
  removeMember: OWNER,
  acceptInvitation: ANYONE,
  requestPasswordReset: ANYONE,
  resetPassword: ANYONE,
  revokeSession: ANYONE,
  // A person's own security (the resolver needs a person's session); the workspace's requirement is the owners'.
  startTwoFactor: ANYONE,
  confirmTwoFactor: ANYONE,
  disableTwoFactor: ANYONE,
  confirmSecondFactor: ANYONE,
  changePassword: ANYONE,
  setTwoFactorRequired: OWNER,
};

/**
 * Fields a role below these reads as null: masked credential hints and the API key (integration
 * work), the provider's raw failure texts (may carry the bank's internal details). Support and
 * merchants read them all.
 */
export const FIELD_ROLES: Readonly<Record<string, readonly WorkspaceRole[]>> = {
  'PaymentAccount.credentialHints': DEVELOPER,
  'Workspace.apiKey': DEVELOPER,
  'Payment.providerErrorCode': ['owner', 'developer', 'operator'],
  'Payment.providerErrorMessage': ['owner', 'developer', 'operator'],
  'ProviderAttempt.providerMessage': ['owner', 'developer', 'operator'],
};

/** Queries only some dashboard roles may run (support may run them too); others are refused. */
export const QUERY_ROLES: Readonly<Record<string, readonly WorkspaceRole[]>> = {
  // Those who may create tokens list the ones within their role (the resolver narrows it).
  accessTokens: ['owner', 'developer', 'operator'],
  members: OWNER,
  invitations: OWNER,
  auditEntries: OWNER,
  auditCsv: OWNER,
};

/** Why this viewer may not run a QUERY_ROLES query, or null when it may. */
export function queryRefusal(ctx: GraphQLContext, roles: readonly WorkspaceRole[]): GraphQLError | null {
  const v = ctx.viewer;
  if (v.kind !== 'dashboard' || roles.includes(v.token.role as WorkspaceRole)) return null;
  return forbidden(message('role_forbidden', ctx.lang, { role: v.token.role }));
}

/** Why this viewer may not call the mutation (a FORBIDDEN error to throw), or null when it may. */
export function mutationRefusal(ctx: GraphQLContext, mutation: string): GraphQLError | null {
  const roles = Object.hasOwn(MUTATION_ROLES, mutation) ? MUTATION_ROLES[mutation] : undefined;
  const v = ctx.viewer;
  if (v.kind === 'anonymous' && roles) return null; // the resolver's own guard answers 401
  if (v.kind === 'support') return forbidden(message('read_only', ctx.lang));
  if (roles && (v.kind === 'merchant' || (v.kind === 'dashboard' && roles.includes(v.token.role as WorkspaceRole)))) return null;
  return forbidden(message('role_forbidden', ctx.lang, {  role: v.kind === 'dashboard' ? v.token.role : '-' }));
}

/**
 * The mutations this viewer may call, by the same check the roles plugin runs (sorted): what the
 * dashboard may offer. Every one for merchants, none for support staff or without a token.
 */
export function allowedMutations(ctx: GraphQLContext): string[] {
  if (ctx.viewer.kind === 'anonymous') return [];
  return Object.keys(MUTATION_ROLES).filter((name) => mutationRefusal(ctx, name) === null).sort();
}

/** Whether this viewer reads a FIELD_ROLES field (true for fields not in the table). */
export function fieldVisible(ctx: GraphQLContext, roles: readonly WorkspaceRole[]): boolean {
  const v = ctx.viewer;
  return v.kind !== 'dashboard' || roles.includes(v.token.role as WorkspaceRole);
}

function forbidden(text: string): GraphQLError {
  return new GraphQLError(text, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } });
}
