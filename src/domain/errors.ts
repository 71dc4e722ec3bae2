// Typed domain errors. Each carries a message code from messages.ts and, where one input is to
// blame, its path (camelCase segments as the domain sees the input; the REST shim snake-cases it).
import type { MessageCode } from './messages.ts';

export type Path = (string | number)[];

export interface Issue {
  path: Path;
  code: MessageCode;
  params?: Record<string, string | number>;
}

export type ErrorKind = 'validation' | 'not_found' | 'state' | 'forbidden' | 'rate_limited' | 'not_implemented';

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(readonly issues: Issue[]) {
    super(issues.map((i) => `${i.path.join('.')}: ${i.code}`).join('; '));
  }
}

/** Input breaks a rule of the contract; nothing was written. */
export class ValidationError extends DomainError {
  readonly kind = 'validation';
  static single(path: Path, code: MessageCode, params?: Issue['params']): ValidationError {
    return new ValidationError([{ path, code, params }]);
  }
}

/** A token names no record of the workspace (another workspace's records look the same). */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
  static single(path: Path, code: MessageCode): NotFoundError {
    return new NotFoundError([{ path, code }]);
  }
}

/** The record exists but its state does not allow the operation (e.g. refund a cancelled payment). */
export class StateError extends DomainError {
  readonly kind = 'state';
  static single(path: Path, code: MessageCode): StateError {
    return new StateError([{ path, code }]);
  }
}

/** The workspace cannot operate, its plan does not cover the feature, or a module is off. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  constructor(code: MessageCode) {
    super([{ path: [], code }]);
  }
}

/** The operation exists in the contract but its issue has not landed yet. */
export class NotImplementedError extends DomainError {
  readonly kind = 'not_implemented';
  constructor() {
    super([{ path: [], code: 'not_implemented' }]);
  }
}

/** Collects issues while a whole input is checked, so a request reports every bad field at once. */
export class IssueList {
  readonly issues: Issue[] = [];
  add(path: Path, code: MessageCode, params?: Issue['params']): void {
    this.issues.push({ path, code, params });
  }
  has(path: Path): boolean {
    const key = path.join('.');
    return this.issues.some((i) => i.path.join('.') === key);
  }
  throwIfAny(): void {
    if (this.issues.length > 0) throw new ValidationError(this.issues);
  }
}
