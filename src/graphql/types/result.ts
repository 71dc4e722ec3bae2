// The shapes every operation payload shares: `result` (contract convention 2) and `errors`.
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { DomainError, type ErrorKind } from '../../domain/errors.ts';
import { message } from '../../domain/messages.ts';

export interface ResultShape {
  successful: boolean;
  message: string | null;
  /** Set by payment, refund and cancel answers that failed (domain/payments/view.ts, PaymentResult). */
  errorCode?: string | null;
}

const errorCodeDescription =
  "Why a payment, refund or cancel failed, for machines: the provider's decline code or the gateway's own (the simulator's codes are listed in docs/decisions.md); null otherwise";

export interface UserErrorShape {
  kind: ErrorKind;
  code: string;
  message: string;
  path: string[];
}

export const ResultRef = builder.objectRef<ResultShape>('Result').implement({
  description: 'Outcome of an operation: successful, or the reason it was not',
  fields: (t) => ({
    successful: t.exposeBoolean('successful'),
    message: t.exposeString('message', { nullable: true }),
    errorCode: t.string({ nullable: true, description: errorCodeDescription, resolve: (r) => r.errorCode ?? null }),
  }),
});

/** A payment answer's `result` with secure-payment's 3D address. */
export const PaymentStartResultRef = builder.objectRef<ResultShape & { redirectUrl?: string | null }>('PaymentStartResult').implement({
  fields: (t) => ({
    successful: t.exposeBoolean('successful'),
    message: t.exposeString('message', { nullable: true }),
    errorCode: t.string({ nullable: true, description: errorCodeDescription, resolve: (r) => r.errorCode ?? null }),
    redirectUrl: t.string({ nullable: true, resolve: (r) => r.redirectUrl ?? null }),
  }),
});

export const ErrorKindEnum = builder.enumType('ErrorKind', {
  values: ['validation', 'not_found', 'state', 'forbidden', 'rate_limited', 'not_implemented'] as const,
});

export const UserErrorRef = builder.objectRef<UserErrorShape>('UserError').implement({
  description: 'A rejected input or state; `path` names the input field (empty when none)',
  fields: (t) => ({
    kind: t.field({ type: ErrorKindEnum, resolve: (e) => e.kind }),
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    path: t.exposeStringList('path'),
  }),
});

export type Payload<T> = (T & { result: ResultShape; errors: UserErrorShape[] }) | { result: ResultShape; errors: UserErrorShape[] };

/** Runs one domain call; a DomainError becomes `errors` (and an unsuccessful result), never a throw. */
export async function payload<T extends object>(ctx: GraphQLContext, run: () => Promise<T & { result?: ResultShape }>): Promise<Payload<T>> {
  try {
    const value = await run();
    return { result: { successful: true, message: null }, ...value, errors: [] };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const errors = toUserErrors(err, ctx);
    return { result: { successful: false, message: errors[0]?.message ?? null }, errors };
  }
}

export function toUserErrors(err: DomainError, ctx: Pick<GraphQLContext, 'lang'>): UserErrorShape[] {
  return err.issues.map((issue) => ({
    kind: err.kind,
    code: issue.code,
    message: message(issue.code, ctx.lang, issue.params),
    path: issue.path.map(String),
  }));
}
