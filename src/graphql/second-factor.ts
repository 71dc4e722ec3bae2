// What a person's second factor gates, applied by the roles plugin (role-plugin.ts) to every field:
// - STEP_UP mutations (money back, keys, tokens, the team) ask a person with two-factor on for a
//   fresh code when the session's last one is older than STEP_UP_MINUTES (SECOND_FACTOR_REQUIRED;
//   the dashboard asks for the code, sends confirmSecondFactor and repeats the call);
// - in a workspace that requires two-factor, a person without it may only set it up (and see who
//   they are, end sessions, change their password): TWO_FACTOR_ENROLMENT_REQUIRED otherwise.
// Tokens and merchants have no second factor: machines are bound by their role and lifetime.
import { GraphQLError } from 'graphql';
import { message } from '../domain/messages.ts';
import { stepUpFresh, STEP_UP_MINUTES } from '../domain/people/two-factor.ts';
import type { GraphQLContext, Viewer } from './context.ts';

export const STEP_UP: ReadonlySet<string> = new Set([
  'refundPayment',
  'cancelPayment',
  'rotateApiCredentials',
  'createAccessToken',
  'revokeAccessToken',
  'inviteMember',
  'cancelInvitation',
  'resendInvitation',
  'changeMemberRole',
  'removeMember',
  'setTwoFactorRequired',
]);

/** What a person who must still enrol may use. */
const WHILE_ENROLLING: ReadonlySet<string> = new Set([
  'Query.myTwoFactor',
  'Query.viewerRole',
  'Query.viewerPermissions',
  'Query.workspace',
  'Query.workspaces',
  'Query.mySessions',
  'Mutation.startTwoFactor',
  'Mutation.confirmTwoFactor',
  'Mutation.revokeSession',
  'Mutation.changePassword',
]);

/** A person in a workspace that requires two-factor who has not set it up (also refused CSV exports and live updates). */
export const mustEnrol = (v: Viewer): boolean => v.kind === 'dashboard' && !!v.person && !v.person.twoFactor && v.workspace.requireTwoFactor;

/** A person who must still enrol, asking for anything but enrolment; else null. */
export function enrolmentRefusal(ctx: GraphQLContext, kind: 'Query' | 'Mutation', field: string): GraphQLError | null {
  if (!mustEnrol(ctx.viewer) || WHILE_ENROLLING.has(`${kind}.${field}`)) return null;
  return new GraphQLError(message('two_factor_enrolment_required', ctx.lang), { extensions: { code: 'TWO_FACTOR_ENROLMENT_REQUIRED', http: { status: 403 } } });
}

/** A STEP_UP mutation of a person with two-factor on whose last code is too old; else null. */
export function stepUpRefusal(ctx: GraphQLContext, mutation: string): GraphQLError | null {
  const v = ctx.viewer;
  if (!STEP_UP.has(mutation) || v.kind !== 'dashboard' || !v.person?.twoFactor) return null;
  if (stepUpFresh(v.person.secondFactorAt, ctx.services.clock.now())) return null;
  return new GraphQLError(message('second_factor_required', ctx.lang), { extensions: { code: 'SECOND_FACTOR_REQUIRED', minutes: STEP_UP_MINUTES } });
}
