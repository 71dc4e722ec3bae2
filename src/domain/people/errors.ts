// What a sign-in or a second-factor code may be refused with.
import { DomainError } from '../errors.ts';

/** Too many failed sign-ins or codes for the account or the address: try again after `retryAfter` seconds. */
export class SignInLockedError extends DomainError {
  readonly kind = 'rate_limited';
  constructor(readonly retryAfter: number) {
    super([{ path: [], code: 'sign_in_locked', params: { seconds: retryAfter } }]);
  }
}

/** The e-mail or the password is wrong (which one is not told). */
export class SignInFailedError extends DomainError {
  readonly kind = 'validation';
  constructor() {
    super([{ path: [], code: 'sign_in_failed' }]);
  }
}

/** E-mail and password were right; the person has two-factor on and sent no code, or a wrong one. */
export class SecondFactorNeededError extends DomainError {
  readonly kind = 'validation';
  constructor(readonly wrongCode: boolean) {
    super([{ path: wrongCode ? ['code'] : [], code: wrongCode ? 'code_invalid' : 'second_factor_required' }]);
  }
}
