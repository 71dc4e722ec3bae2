// The 3-D Pay rule, one for every bank whose 3D gate charges the card itself (EST's and GVP's
// "3D Pay" models): a signed answer whose charge was approved is the money's truth. The bank took
// the money, so the payment is successful whatever its mdStatus, even one the gateway's own 3D
// policy would not have charged with ("3D" model: EST authorises on 1 only). Failing such a
// payment would record a failure for money the bank moved; voiding it instead would need a second
// call whose answer can be lost too. The gates go on to charge with mdStatus 1-4 (full, and the
// "half secure" 2, 3, 4); an answer without an approved charge is then the charge's refusal, and
// with any other mdStatus a failed 3-D Secure. See docs/providers.md ("3-D Pay").

/** mdStatus values after which a 3-D Pay gate goes on to charge the card. */
const GATE_CHARGES = new Set(['1', '2', '3', '4']);

const APPROVED = '00';

/**
 * What a verified 3-D Pay answer says about the money. `charged`: the bank approved the sale;
 * `refused`: it tried and the card was refused (the code says why); `not_authenticated`: 3-D
 * Secure failed and no charge was tried; `incomplete`: the gate went on to charge but the answer
 * does not say how it went (the order inquiry must tell).
 */
export type ThreeDPayOutcome = 'charged' | 'refused' | 'not_authenticated' | 'incomplete';

export function threeDPayOutcome(mdStatus: string, procReturnCode: string): ThreeDPayOutcome {
  if (procReturnCode === APPROVED) return 'charged';
  if (!GATE_CHARGES.has(mdStatus)) return 'not_authenticated';
  return procReturnCode === '' ? 'incomplete' : 'refused';
}
