// How the CLI shows workspaces, channels, accounts and rules: snake_case JSON (the names the REST
// API uses, e.g. payment_provider_token) and aligned text lines.
import type { Channel, PaymentAccount, RoutingRule, Workspace } from '../generated/prisma/client.ts';
import { formatAmount } from '../domain/money.ts';
import { capabilityNames } from '../domain/accounts.ts';
import type { CredentialHint } from '../domain/account-credentials.ts';

export function planNames(w: Workspace): string[] {
  const on: Array<[string, boolean]> = [
    ['orders', w.planOrders],
    ['saved_cards', w.planSavedCards],
    ['subscriptions', w.planSubscriptions],
    ['payment_links', w.planPaymentLinks],
    ['pay_by_link', w.payByLinkEnabled],
  ];
  return on.filter(([, yes]) => yes).map(([name]) => name);
}

export { capabilityNames };

export function workspaceJson(w: Workspace) {
  return {
    team: w.slug,
    name: w.name,
    active: w.active,
    mode: w.mode,
    time_zone: w.timeZone,
    plan: planNames(w),
    default_payment_provider_token: w.defaultPaymentAccountId,
    created_at: w.createdAt.toISOString(),
  };
}

export function workspaceLine(w: Workspace): string {
  const plan = planNames(w).join(',') || 'none';
  return `${w.slug}  ${w.active ? 'active' : 'suspended'}  ${w.mode}  ${w.timeZone}  plan=${plan}  name=${JSON.stringify(w.name)}`;
}

export function channelJson(c: Channel) {
  return { channel_token: c.id, name: c.name, created_at: c.createdAt.toISOString() };
}

/** An account with its settings and its credentials masked (`hints`, from credentialHints): never a secret. */
export function accountJson(a: PaymentAccount, defaultId: string | null, hints: readonly CredentialHint[]) {
  return {
    payment_provider_token: a.id,
    name: a.name,
    provider: a.provider,
    mode: a.mode,
    currencies: a.currencies,
    capabilities: capabilityNames(a),
    default: a.id === defaultId,
    settings: a.settings as Record<string, unknown>,
    credentials: hints.map((h) => ({ name: h.name, hint: h.hint })),
  };
}

export function accountLine(a: PaymentAccount, defaultId: string | null, hints: readonly CredentialHint[]): string {
  const settings = Object.entries(a.settings as Record<string, unknown>).map(([k, v]) => `${k}=${String(v)}`);
  const credentials = hints.map((h) => `${h.name}=${h.hint}`);
  return [
    `${a.id}  ${a.provider}  ${a.mode}  ${a.currencies.join(',')}  ${capabilityNames(a).join(',') || 'no capabilities'}${a.id === defaultId ? '  (default)' : ''}  name=${JSON.stringify(a.name)}`,
    ...(settings.length ? [`settings: ${settings.join(' ')}`] : []),
    ...(credentials.length ? [`credentials: ${credentials.join(' ')}`] : []),
  ].join('  ');
}

export function ruleJson(r: RoutingRule) {
  return {
    id: r.id,
    position: r.position,
    payment_provider_token: r.paymentAccountId,
    scheme: r.scheme,
    card_type: r.cardType,
    bin_prefix: r.binPrefix,
    issuer_code: r.issuerCode,
    currency: r.currency,
    min_amount: r.minAmount === null ? null : formatAmount(r.minAmount),
    max_amount: r.maxAmount === null ? null : formatAmount(r.maxAmount),
    program: r.program,
    weight: r.weight,
  };
}

export function ruleLine(r: RoutingRule): string {
  const conditions = [
    r.scheme && `scheme=${r.scheme}`,
    r.cardType && `card_type=${r.cardType}`,
    r.binPrefix && `bin_prefix=${r.binPrefix}`,
    r.issuerCode && `issuer_code=${r.issuerCode}`,
    r.currency && `currency=${r.currency}`,
    r.minAmount !== null && `min_amount=${formatAmount(r.minAmount)}`,
    r.maxAmount !== null && `max_amount=${formatAmount(r.maxAmount)}`,
    r.program && `program=${r.program}`,
    r.weight !== null && `weight=${r.weight}`,
  ].filter(Boolean);
  return `${r.position}. ${r.id}  -> ${r.paymentAccountId}  ${conditions.join(' ') || '(matches every card)'}`;
}
