// Judging what PosNet's 3-D service posts to the payment's callback address (merchantReturnURL):
// MerchantPacket, BankPacket and Sign, sealed by the bank with keys the merchant does not hold. So
// the gateway cannot read them itself: it asks the bank to open them (oosResolveMerchantData, as
// mewebstudio/pos's PosNet::make3DPayment does), and believes the opened result only when its mac
// checks with the merchant's key (hash.ts resolutionMac) and it names this payment's XID, amount
// and currency. A packet the bank does not recognise (forged, altered) is a signature rejection.
// mdStatus 1-4 authenticates (codes.ts); anything else fails the payment without a charge.
import type { CallbackCheck, CallbackRejection, ThreeDsPayment } from '../types.ts';
import { isAuthenticated, threeDsFailure } from './codes.ts';
import { resolutionMac, sameMac, type MacKey } from './hash.ts';
import { posnetAmount, POSNET_CURRENCY, type CallbackPackets } from './requests.ts';
import { saidOf } from './answers.ts';
import { textAt, type XmlTree } from './xml.ts';

const reject = (cause: CallbackRejection, reason: string): CallbackCheck => ({ status: 'rejected', cause, reason });

/** The packets the callback must carry; null when it has none (nothing to ask the bank about). */
export function packetsOf(fields: Readonly<Record<string, string>>): CallbackPackets | null {
  const bankData = fields.BankPacket ?? '';
  const merchantData = fields.MerchantPacket ?? '';
  const sign = fields.Sign ?? '';
  return bankData && merchantData && sign ? { bankData, merchantData, sign } : null;
}

/** The bank's resolution of the packets, judged for this payment. */
export function judgeResolution(key: MacKey, payment: ThreeDsPayment, xid: string, packets: CallbackPackets, answer: XmlTree): CallbackCheck {
  const said = saidOf(answer);
  if (said === null || said.approved !== '1') return reject('signature', `the bank did not open the callback (${said?.respCode || 'no answer'}: ${said?.respText ?? ''})`);
  const at = (name: string) => textAt(answer, 'oosResolveMerchantDataResponse', name) ?? '';
  const resolved = { mdStatus: at('mdStatus'), xid: at('xid'), amount: at('amount'), currency: at('currency') };
  if (!sameMac(resolutionMac(key, resolved), at('mac'))) return reject('signature', 'the resolution mac does not check with the encryption key');
  if (resolved.xid !== xid) return reject('order', 'callback is for another order');
  if (resolved.amount !== posnetAmount(payment.amount)) return reject('amount', 'callback amount is not the payment amount');
  if (resolved.currency !== POSNET_CURRENCY[payment.currency]) return reject('currency', 'callback currency is not the payment currency');
  if (!isAuthenticated(resolved.mdStatus)) return { status: 'verified', authenticated: false, failure: threeDsFailure(resolved.mdStatus, at('mdErrorMessage')) };
  return { status: 'verified', authenticated: true, data: { ...packets, mdStatus: resolved.mdStatus, xid } };
}
