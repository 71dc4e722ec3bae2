// PayFlex's answers in the gateway's `error_code` vocabulary (docs/decisions.md). ResultCode is
// "0000" when approved. mewebstudio/pos (PayFlexV4PosResponseDataMapper) names a few codes: 0312
// "RED-GEÇERSİZ KART", 1059 and 1083 (a refund or cancel the sale cannot take: "İşlemin tamamı iade
// edilmiş"), 9039 and 9065 (no such merchant). VakıfBank writes an issuer's refusal as its ISO 8583
// code in four digits (0005, 0051, 0054...; HostResultCode keeps the host's own "000"-style code);
// the MPI adds its own (2005: no such merchant, 1105: the merchant's address not allowed). The bank
// publishes no complete table, so an unknown code is a card decline.
import { CARD_DECLINED, declined, PROVIDER_ERROR, ruleOf, type CodeRule } from '../bank-pos/codes.ts';
import type { Declined, ProviderFailure } from '../types.ts';

export const APPROVED = '0000';

/** The emulator's answer to a 3-D sale whose MPI result the VPOS does not hold as authenticated (not one of VakıfBank's published codes). */
export const MPI_NOT_AUTHENTICATED = '9030';

const BY_CODE: Readonly<Record<string, CodeRule>> = {
  '0005': CARD_DECLINED, // do not honour
  '0012': CARD_DECLINED, // invalid transaction
  '0312': CARD_DECLINED, // "RED-GEÇERSİZ KART"
  '0014': declined('invalid_card_number'),
  '0033': declined('expired_card'),
  '0054': declined('expired_card'),
  '0051': declined('insufficient_funds'),
  '0061': declined('insufficient_funds'),
  '0082': declined('invalid_cvc'),
  [MPI_NOT_AUTHENTICATED]: declined('3ds_failed'),
  // The merchant's account, the bank itself or our request: the shopper can do nothing about them.
  '0091': PROVIDER_ERROR,
  '0096': PROVIDER_ERROR,
  '1105': PROVIDER_ERROR, // the merchant's address is not allowed
  '2005': PROVIDER_ERROR, // MPI: no such merchant
  '9039': PROVIDER_ERROR, // no such merchant
  '9065': PROVIDER_ERROR, // no such merchant
};

/** What PayFlex said, as it came. */
export interface PayflexSaid {
  code: string;
  message?: string;
}

const messageOf = (said: PayflexSaid): string => (said.message !== undefined && said.message !== '' ? said.message : `PayFlex code ${said.code}`);

/** A sale PayFlex refused (plain or 3-D). */
export function paymentFailure(said: PayflexSaid): Declined | ProviderFailure {
  const [kind, code] = ruleOf(BY_CODE, said.code);
  const message = messageOf(said);
  return { status: kind === 'declined' ? 'declined' : 'error', code, message, providerCode: said.code, providerMessage: message };
}

/** A refund or cancel PayFlex refused: the bank's own errors stay provider errors, anything else (1059, 1083...) is refund_rejected. */
export function reversalFailure(said: PayflexSaid): Declined | ProviderFailure {
  const message = messageOf(said);
  if (ruleOf(BY_CODE, said.code) === PROVIDER_ERROR) return { status: 'error', code: 'provider_error', message, providerCode: said.code, providerMessage: message };
  return { status: 'declined', code: 'refund_rejected', message, providerCode: said.code, providerMessage: message };
}

/**
 * The shopper did not pass 3-D Secure, as the MPI's Status says: Y authenticated; A an attempt
 * ("half secure"), N not authenticated, U not possible, E an error. Only Y goes on, as
 * mewebstudio's is3dAuthSuccess does.
 */
export function threeDsFailure(status: string, said?: PayflexSaid): Declined {
  const providerCode = `Status:${status === '' ? 'none' : status}`;
  return {
    status: 'declined',
    code: '3ds_failed',
    message: `3D Secure not completed (${providerCode})`,
    providerCode,
    ...(said?.message ? { providerMessage: said.code ? `${said.code} ${said.message}` : said.message } : {}),
  };
}

/** An enrollment the MPI did not answer with an ACS: N the card is not in 3-D Secure (declined), U or E (its error code) the MPI failed. */
export function enrollmentFailure(status: string, said: PayflexSaid): Declined | ProviderFailure {
  if (status === 'N') return { ...threeDsFailure('N'), message: 'The card is not enrolled in 3D Secure', providerCode: 'VERes:N' };
  const message = messageOf(said);
  return { status: 'error', code: 'provider_error', message, providerCode: said.code === '' ? `VERes:${status || 'none'}` : said.code, providerMessage: message };
}
