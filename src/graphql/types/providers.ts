// The provider catalog as forms need it (the dashboard's account form asks for each provider's
// credential and setting fields, a bank's virtual POS its banks and 3D callback address), and what
// a payment account shows of its connection: its settings as entered, its credentials only
// masked, its provider's name for people, its bank's.
import { builder } from '../builder.ts';
import { readableWorkspaceId } from '../auth.ts';
import { credentialHints, providerFields, type CredentialHint, type ProviderField } from '../../domain/account-credentials.ts';
import { bankNameOf, type BankOption, type ProviderDefinition } from '../../providers/registry.ts';
import { threeDsCallbackUrl } from '../../domain/payments/attempt.ts';

const ProviderFieldRef = builder.objectRef<ProviderField>('ProviderField').implement({
  description: 'One field a provider asks an account for',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The key in the credentials or settings object, e.g. api_key' }),
    required: t.exposeBoolean('required'),
    defaultValue: t.exposeString('defaultValue', { nullable: true, description: 'What an absent value becomes' }),
  }),
});

const BankRef = builder.objectRef<BankOption>('Bank').implement({
  description: 'A bank a virtual POS provider serves',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The value of the account’s bank setting (empty for a provider that is one bank)' }),
    name: t.exposeString('name'),
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
    banks: t.field({ type: [BankRef], description: 'A bank’s virtual POS: the banks it serves; empty otherwise', resolve: (d) => [...(d.banks ?? [])] }),
    threeDsCallbackPattern: t.string({
      nullable: true,
      description: 'A bank’s virtual POS: the 3D Secure callback address the gateway sends for each payment, {payment_id} standing for the payment; the bank may ask the merchant to allow it',
      resolve: (d, _args, ctx) => (d.banks?.length ? threeDsCallbackUrl(ctx.services, '{payment_id}') : null),
    }),
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
  bankName: t.string({
    nullable: true,
    description: 'A bank’s virtual POS: the bank its settings choose',
    select: { provider: true, settings: true },
    resolve: (a, _args, ctx) => bankNameOf(ctx.services.providers.definitions.find((d) => d.id === a.provider), a.settings),
  }),
  credentialHints: t.field({
    type: [CredentialHintRef],
    description: 'The credentials set, masked; a credential itself is never returned',
    select: { credentials: true },
    resolve: (a, _args, ctx) => credentialHints(ctx.services.masterKey, a),
  }),
}));
