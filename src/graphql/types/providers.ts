// The provider catalog as forms need it (the dashboard's account form asks for each provider's
// credential and setting fields), and what a payment account shows of its connection: its
// settings as entered, its credentials only masked, its provider's name for people.
import { builder } from '../builder.ts';
import { readableWorkspaceId } from '../auth.ts';
import { credentialHints, providerFields, type CredentialHint, type ProviderField } from '../../domain/account-credentials.ts';
import type { ProviderDefinition } from '../../providers/registry.ts';

const ProviderFieldRef = builder.objectRef<ProviderField>('ProviderField').implement({
  description: 'One field a provider asks an account for',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The key in the credentials or settings object, e.g. api_key' }),
    required: t.exposeBoolean('required'),
    defaultValue: t.exposeString('defaultValue', { nullable: true, description: 'What an absent value becomes' }),
  }),
});

const ProviderRef = builder.objectRef<ProviderDefinition>('Provider').implement({
  description: 'A payment provider a payment account can connect to',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The value of createPaymentAccount’s provider' }),
    label: t.exposeString('label'),
    capabilities: t.stringList({ description: 'What the provider can do; an account may switch these off, never others on', resolve: (d) => [...d.capabilities] }),
    credentialFields: t.field({ type: [ProviderFieldRef], description: 'Secrets: stored encrypted, never shown again (only masked)', resolve: (d) => providerFields(d.credentials) }),
    settingFields: t.field({ type: [ProviderFieldRef], resolve: (d) => providerFields(d.settings) }),
  }),
});

builder.queryField('providers', (t) =>
  t.field({
    type: [ProviderRef],
    description: 'Every provider the gateway can connect a payment account to',
    resolve: (_r, _a, ctx) => {
      readableWorkspaceId(ctx); // signed-in callers only
      return ctx.services.providers.definitions;
    },
  }),
);

const CredentialHintRef = builder.objectRef<CredentialHint>('CredentialHint').implement({
  description: 'A stored credential, masked: its last four characters when it has 12 or more, else nothing of it',
  fields: (t) => ({ name: t.exposeString('name'), hint: t.exposeString('hint') }),
});

builder.prismaObjectFields('PaymentAccount', (t) => ({
  providerLabel: t.string({
    nullable: true,
    select: { provider: true },
    resolve: (a, _args, ctx) => ctx.services.providers.definitions.find((d) => d.id === a.provider)?.label ?? null,
  }),
  settings: t.field({ type: 'JSON', description: "The provider's settings as stored (defaults filled)", select: { settings: true }, resolve: (a) => a.settings }),
  credentialHints: t.field({
    type: [CredentialHintRef],
    description: 'The credentials set, masked; a credential itself is never returned',
    select: { credentials: true },
    resolve: (a, _args, ctx) => credentialHints(ctx.services.masterKey, a),
  }),
}));
