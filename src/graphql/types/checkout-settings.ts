// The workspace's hosted-page settings: its logo and colour, and the origins whose pages may frame
// its hosted pages. One mutation changes them; src/domain/checkout-settings.ts checks them.
import { builder } from '../builder.ts';
import { actingWorkspace } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { WorkspaceRecord } from './workspace.ts';
import { MAX_EMBED_ORIGINS, setCheckoutSettings } from '../../domain/checkout-settings.ts';
import type { Workspace } from '../../generated/prisma/client.ts';

builder.prismaObjectField('Workspace', 'logoUrl', (t) => t.exposeString('brandLogoUrl', { nullable: true, description: "The logo the hosted pages show (an https address); null: the workspace's name only" }));
builder.prismaObjectField('Workspace', 'brandColor', (t) => t.exposeString('brandColor', { nullable: true, description: "The hosted pages' colour (#rrggbb); null: the gateway's" }));
builder.prismaObjectField('Workspace', 'embedOrigins', (t) =>
  t.exposeStringList('embedOrigins', { description: 'Origins whose pages may frame the hosted pages (embedded checkout); every other page is refused by the browser' }),
);

const CheckoutSettingsInput = builder.inputType('CheckoutSettingsInput', {
  description: 'The settings to change; absent keeps the current value',
  fields: (t) => ({
    logoUrl: t.string({ description: "An https address of the logo; null or '': none" }),
    brandColor: t.string({ description: "#rrggbb; null or '': the gateway's colour. Text on it is black or white, whichever contrasts more" }),
    embedOrigins: t.stringList({ description: `The whole list (at most ${MAX_EMBED_ORIGINS}): https://host[:port], or http://localhost:port and http://127.0.0.1:port for development; null or []: none` }),
  }),
});

interface CheckoutSettingsPayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  workspace?: Workspace;
}

const CheckoutSettingsPayload = builder.objectRef<CheckoutSettingsPayloadShape>('CheckoutSettingsPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    workspace: t.field({ type: WorkspaceRecord, nullable: true, resolve: (p) => p.workspace ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('setCheckoutSettings', (t) =>
  t.field({
    type: CheckoutSettingsPayload,
    description: "Sets the hosted pages' logo and colour and the origins that may frame them, for the caller's workspace; nothing is changed when any of it is refused",
    args: { input: t.arg({ type: CheckoutSettingsInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ workspace: await setCheckoutSettings(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<CheckoutSettingsPayloadShape>,
  }),
);
