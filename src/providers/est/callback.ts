// Judging the form EST's 3D gate posts to the payment's callback address (okUrl = failUrl). It is
// the bank's only if its HASH is right with the account's store key: the ver3 hash covers every
// posted field, so nothing in it can be changed, added or dropped; the older ver1 hash covers only
// the fields HASHPARAMS names. A ver1 answer is taken only in the "3D" model and only when it
// signs oid, mdStatus and md: it does not sign ProcReturnCode, so a "3D Pay" charge read from it
// could be forged from a declined one. Then the callback must be about this payment (its oid is
// the order id the start handed out, its amount and currency are the payment's). In the "3D"
// model mdStatus says whether the shopper was authenticated (codes.ts: only "1"); in "3D Pay" the
// gate has already charged, and the charge decides (../three-d-pay.ts). A callback without a
// valid hash is rejected whatever it says, even a failure: it changes nothing by itself.
import type { CallbackCheck, CallbackRejection, ThreeDsPayment } from '../types.ts';
import { threeDPayOutcome } from '../three-d-pay.ts';
import { CURRENCY_CODES, fromEstAmount } from './amount.ts';
import { isAuthenticated, threeDsFailure } from './codes.ts';
import { sameHash, ver1Hash, ver3Hash } from './hash.ts';

export type EstModel = '3d' | '3d_pay';

/** Fields a ver1 callback must sign for the connector to trust it. */
const VER1_REQUIRED = ['oid', 'mdStatus', 'md'];

type Signed = { scheme: 'ver3' | 'ver1' } | { rejected: string; cause: CallbackRejection };

function checkSignature(fields: Readonly<Record<string, string>>, storeKey: string): Signed {
  const given = fields.HASH;
  if (given === undefined || given === '') return { rejected: 'The callback is not signed', cause: 'unsigned' };
  const mismatch = { rejected: 'The callback signature does not match the store key', cause: 'signature' } as const;
  if (fields.hashAlgorithm === 'ver3') return sameHash(ver3Hash(fields, storeKey), given) ? { scheme: 'ver3' } : mismatch;
  const signedNames = (fields.HASHPARAMS ?? '').split(':');
  if (!VER1_REQUIRED.every((name) => signedNames.includes(name))) return { rejected: 'The callback does not sign its order and 3D result', cause: 'incomplete' };
  const expected = ver1Hash(fields, storeKey);
  return expected !== null && sameHash(expected, given) ? { scheme: 'ver1' } : mismatch;
}

/** The model the callback answers for: the storetype our form sent, which ver3 signs; ver1 is "3D" only. */
function modelOf(fields: Readonly<Record<string, string>>, scheme: 'ver3' | 'ver1'): EstModel | null {
  const storetype = fields.storetype ?? '3d';
  if (storetype === '3d') return '3d';
  if (storetype === '3d_pay' && scheme === 'ver3') return '3d_pay';
  return null;
}

const THREE_D_DATA = ['md', 'xid', 'eci', 'cavv', 'taksit'] as const;
const THREE_D_PAY_DATA = ['ProcReturnCode', 'Response', 'ErrMsg', 'TransId', 'AuthCode', 'HostRefNum', 'EXTRA_ERRORCODE', 'ErrorCode', 'ErrCode'] as const;

function pick(fields: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.filter((name) => fields[name] !== undefined).map((name) => [name, fields[name]!]));
}

const reject = (cause: CallbackRejection, reason: string): CallbackCheck => ({ status: 'rejected', cause, reason });

export function judgeCallback(clientId: string, storeKey: string, payment: ThreeDsPayment, fields: Readonly<Record<string, string>>): CallbackCheck {
  const signed = checkSignature(fields, storeKey);
  if ('rejected' in signed) return reject(signed.cause, signed.rejected);
  const model = modelOf(fields, signed.scheme);
  if (model === null) return reject('incomplete', 'The callback is for a model this connector does not use');
  if (fields.clientid !== undefined && fields.clientid !== clientId) return reject('merchant', 'The callback is for another merchant');
  if (fields.oid !== payment.providerReference) return reject('order', 'The callback is for another order');
  // A ver1 callback may leave them out (they are not signed then); a ver3 one always echoes them.
  if (signed.scheme === 'ver3' || fields.amount !== undefined) {
    if (fromEstAmount(fields.amount) !== payment.amount) return reject('amount', 'The callback is for another amount');
  }
  if (signed.scheme === 'ver3' || fields.currency !== undefined) {
    if (fields.currency !== CURRENCY_CODES[payment.currency]) return reject('currency', 'The callback is for another currency');
  }
  const mdStatus = fields.mdStatus ?? '';
  const notAuthenticated = (): CallbackCheck => ({ status: 'verified', authenticated: false, failure: threeDsFailure(mdStatus, fields.mdErrorMsg || fields.ErrMsg || '') });
  if (model === '3d_pay') {
    const outcome = threeDPayOutcome(mdStatus, fields.ProcReturnCode ?? '');
    if (outcome === 'not_authenticated') return notAuthenticated();
    if (outcome === 'incomplete') return reject('incomplete', 'The 3D Pay callback does not say how the charge went (no ProcReturnCode)');
    return { status: 'verified', authenticated: true, data: { model, mdStatus, ...pick(fields, THREE_D_PAY_DATA) } };
  }
  if (!isAuthenticated(mdStatus)) return notAuthenticated();
  if (!fields.md) return reject('incomplete', 'The callback has no card token (md)');
  return { status: 'verified', authenticated: true, data: { model, ...pick(fields, THREE_D_DATA) } };
}
