// A signed-in person's own security: two-factor enrolment (a secret to scan, a code to confirm,
// recovery codes shown once), turning it off, the fresh code guarded operations ask for, a
// workspace's requirement (owners), and a password change. The rules are domain/people.
import { builder } from '../builder.ts';
import type { GraphQLContext, PersonIdentity } from '../context.ts';
import { actingWorkspace } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { DomainError } from '../../domain/errors.ts';
import { personOf } from './members.ts';
import { checkCodeAudit } from '../audit-recorder.ts';
import { confirmEnrolment, confirmSecondFactor, disableTwoFactor, recoveryCodesLeft, setTwoFactorRequired, startEnrolment, stepUpFresh, STEP_UP_MINUTES } from '../../domain/people/two-factor.ts';
import { changePassword } from '../../domain/people/resets.ts';

interface TwoFactorStatus {
  enabled: boolean;
  required: boolean;
  recoveryCodesLeft: number;
  freshUntil: Date | null;
}

const TwoFactorRef = builder.objectRef<TwoFactorStatus>('TwoFactorStatus').implement({
  description: "The signed-in person's two-factor authentication",
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { nullable: false }),
    required: t.exposeBoolean('required', { nullable: false, description: 'The workspace requires it of every member' }),
    recoveryCodesLeft: t.exposeInt('recoveryCodesLeft', { nullable: false }),
    freshUntil: t.expose('freshUntil', { type: 'DateTime', nullable: true, description: `Until when this session's last code covers refunds, key rotation, tokens and team changes (${STEP_UP_MINUTES} minutes after it)` }),
  }),
});

interface SecurityPayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  secret?: string;
  uri?: string;
  recoveryCodes?: string[];
  twoFactor?: TwoFactorStatus;
}

const SecurityPayload = builder.objectRef<SecurityPayloadShape>('SecurityPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, nullable: false, resolve: (p) => p.result }),
    secret: t.string({ nullable: true, description: 'The new TOTP secret in base32, to type into an authenticator app (startTwoFactor only)', resolve: (p) => p.secret ?? null }),
    uri: t.string({ nullable: true, description: 'The otpauth:// address the QR code shows (startTwoFactor only)', resolve: (p) => p.uri ?? null }),
    recoveryCodes: t.stringList({ nullable: true, description: 'One-time codes for a lost phone, shown this once (confirmTwoFactor only)', resolve: (p) => p.recoveryCodes ?? null }),
    twoFactor: t.field({ type: TwoFactorRef, nullable: true, resolve: (p) => p.twoFactor ?? null }),
    errors: t.field({ type: [UserErrorRef], nullable: false, resolve: (p) => p.errors }),
  }),
});

const run = (ctx: GraphQLContext, fn: () => Promise<Omit<SecurityPayloadShape, 'result' | 'errors'>>) => payload(ctx, fn) as Promise<SecurityPayloadShape>;

const from = (me: PersonIdentity) => ({ email: me.email, address: me.address });

async function statusOf(ctx: GraphQLContext, me: PersonIdentity): Promise<TwoFactorStatus> {
  const person = await ctx.services.db.person.findUniqueOrThrow({ where: { id: me.id } });
  const session = await ctx.services.db.personSession.findUniqueOrThrow({ where: { id: me.sessionId } });
  const now = ctx.services.clock.now();
  const fresh = person.totpEnabledAt !== null && stepUpFresh(session.secondFactorAt, now);
  return {
    enabled: person.totpEnabledAt !== null,
    required: ctx.viewer.kind === 'dashboard' && ctx.viewer.workspace.requireTwoFactor,
    recoveryCodesLeft: await recoveryCodesLeft(ctx.services.db, me.id),
    freshUntil: fresh ? new Date(session.secondFactorAt!.getTime() + STEP_UP_MINUTES * 60_000) : null,
  };
}

/** Runs a call that checks a code; a wrong one (or a lockout) is an audit entry too. */
async function withCode(ctx: GraphQLContext, operation: string, fn: () => Promise<Omit<SecurityPayloadShape, 'result' | 'errors'>>): Promise<SecurityPayloadShape> {
  return run(ctx, async () => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof DomainError && err.issues.some((i) => i.code === 'code_invalid' || i.code === 'sign_in_locked')) {
        await checkCodeAudit(ctx, operation, err.kind === 'rate_limited' ? 'locked' : 'wrong_code');
      }
      throw err;
    }
  });
}

builder.queryField('myTwoFactor', (t) =>
  t.field({
    type: TwoFactorRef,
    nullable: true,
    description: "The signed-in person's two-factor authentication; null for a token",
    resolve: (_r, _a, ctx) => {
      const v = ctx.viewer;
      return v.kind === 'dashboard' && v.person ? statusOf(ctx, v.person) : null;
    },
  }),
);

builder.mutationField('startTwoFactor', (t) =>
  t.field({
    type: SecurityPayload,
    description: 'Makes a new TOTP secret to scan (QR code of `uri`) or type (`secret`); two-factor is on once confirmTwoFactor gets a code from it',
    resolve: (_r, _a, ctx) =>
      run(ctx, async () => {
        const me = personOf(ctx);
        const person = await ctx.services.db.person.findUniqueOrThrow({ where: { id: me.id } });
        return startEnrolment(ctx.services, person);
      }),
  }),
);

builder.mutationField('confirmTwoFactor', (t) =>
  t.field({
    type: SecurityPayload,
    description: 'Turns two-factor on with a code from the secret startTwoFactor made; answers the recovery codes, shown this once',
    args: { code: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) =>
      withCode(ctx, 'confirmTwoFactor', async () => {
        const me = personOf(ctx);
        const now = ctx.services.clock.now();
        const recoveryCodes = await confirmEnrolment(ctx.services, me.id, args.code, from(me), now);
        // Confirming is a fresh code for this session too.
        await ctx.services.db.personSession.update({ where: { id: me.sessionId }, data: { secondFactorAt: now } });
        return { recoveryCodes, twoFactor: await statusOf(ctx, me) };
      }),
  }),
);

builder.mutationField('disableTwoFactor', (t) =>
  t.field({
    type: SecurityPayload,
    description: 'Turns two-factor off with a current code (or a recovery code); refused while a workspace of the person requires it',
    args: { code: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) =>
      withCode(ctx, 'disableTwoFactor', async () => {
        const me = personOf(ctx);
        await disableTwoFactor(ctx.services, me.id, args.code, from(me), ctx.services.clock.now());
        return { twoFactor: await statusOf(ctx, me) };
      }),
  }),
);

builder.mutationField('confirmSecondFactor', (t) =>
  t.field({
    type: SecurityPayload,
    description: `A fresh code for this session: refunds, key rotation, token creation and team changes then run for ${STEP_UP_MINUTES} minutes without asking again`,
    args: { code: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) =>
      withCode(ctx, 'confirmSecondFactor', async () => {
        const me = personOf(ctx);
        await confirmSecondFactor(ctx.services, { id: me.sessionId, personId: me.id }, args.code, from(me), ctx.services.clock.now());
        return { twoFactor: await statusOf(ctx, me) };
      }),
  }),
);

builder.mutationField('setTwoFactorRequired', (t) =>
  t.field({
    type: SecurityPayload,
    description: 'Requires two-factor of every member of the workspace (an owner who has it on), or stops requiring it',
    args: { required: t.arg.boolean({ required: true }) },
    resolve: (_r, args, ctx) =>
      run(ctx, async () => {
        const v = ctx.viewer;
        const me = v.kind === 'dashboard' && v.person ? await ctx.services.db.person.findUniqueOrThrow({ where: { id: v.person.id } }) : null;
        const workspace = await setTwoFactorRequired(ctx.services.db, actingWorkspace(ctx), me, args.required);
        return v.kind === 'dashboard' && v.person ? { twoFactor: { ...(await statusOf(ctx, v.person)), required: workspace.requireTwoFactor } } : {};
      }),
  }),
);

builder.mutationField('changePassword', (t) =>
  t.field({
    type: SecurityPayload,
    description: "Changes the signed-in person's password (the current one first); every other session of theirs ends at once",
    args: { currentPassword: t.arg.string({ required: true }), newPassword: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) =>
      run(ctx, async () => {
        const me = personOf(ctx);
        await changePassword(ctx.services.db, { personId: me.id, sessionId: me.sessionId, address: me.address }, args, ctx.services.clock);
        return {};
      }),
  }),
);
