// The rule that finds a lost refund or cancel in a bank's order history (src/providers/lost-refund.ts),
// on histories written by hand: each branch of the rule once.
import { describe, expect, it } from 'vitest';
import { judgeLostCancel, judgeLostRefund, type BankCredit, type BankOrderHistory } from '../../src/providers/lost-refund.ts';
import type { OtherRefund, RefundStatusInput } from '../../src/providers/types.ts';

const credit = (amount: bigint, state: BankCredit['state'] = 'approved', reference = `T${amount}`): BankCredit => ({ amount, state, code: state === 'refused' ? '99' : '00', reference });
const history = (credits: BankCredit[], more: Partial<BankOrderHistory> = {}): BankOrderHistory => ({ credits, sale: 'standing', complete: true, ...more });
const lost = (amount: bigint, otherRefunds: OtherRefund[] = []): RefundStatusInput => ({ idempotencyKey: 'refund:r', providerReference: 'o', amount, currency: 'TRY', otherRefunds });

describe('judgeLostRefund', () => {
  it('succeeded when more approved credits of its amount are listed than recorded refunds explain', () => {
    expect(judgeLostRefund(lost(500n), history([credit(500n)]))).toEqual({ kind: 'succeeded', reference: 'T500' });
    expect(judgeLostRefund(lost(500n, [{ amount: 500n, status: 'succeeded' }]), history([credit(500n, 'approved', 'A'), credit(500n, 'approved', 'B')]))).toEqual({ kind: 'succeeded', reference: 'B' });
  });

  it('unknown when every approved credit is explained and the history is complete', () => {
    expect(judgeLostRefund(lost(500n), history([]))).toEqual({ kind: 'unknown' });
    expect(judgeLostRefund(lost(500n, [{ amount: 500n, status: 'succeeded' }]), history([credit(500n)]))).toEqual({ kind: 'unknown' });
    // A credit voided since is not counted.
    expect(judgeLostRefund(lost(500n), history([credit(500n, 'voided')]))).toEqual({ kind: 'unknown' });
  });

  it('retry when the history is incomplete, a credit is unexplained, or the amounts were not given', () => {
    expect(judgeLostRefund(lost(500n), history([], { complete: false }))).toEqual({ kind: 'retry' });
    expect(judgeLostRefund(lost(500n), history([credit(300n)]))).toEqual({ kind: 'retry' });
    expect(judgeLostRefund(lost(500n, [{ amount: 500n, status: 'pending' }]), history([credit(500n)]))).toEqual({ kind: 'retry' });
    expect(judgeLostRefund({ idempotencyKey: 'refund:r', providerReference: 'o' }, history([]))).toEqual({ kind: 'retry' });
  });

  it('declined by an unexplained refused credit of its amount, once no approved one is left unexplained', () => {
    expect(judgeLostRefund(lost(500n), history([credit(500n, 'refused')]))).toEqual({ kind: 'declined', credit: credit(500n, 'refused') });
    expect(judgeLostRefund(lost(500n, [{ amount: 500n, status: 'declined' }]), history([credit(500n, 'refused')]))).toEqual({ kind: 'unknown' });
    expect(judgeLostRefund(lost(500n), history([credit(500n, 'refused'), credit(200n)]))).toEqual({ kind: 'retry' });
  });
});

describe('judgeLostCancel', () => {
  it('succeeded for a voided sale, unknown for a standing one, retry otherwise', () => {
    expect(judgeLostCancel(history([], { sale: 'voided' }), 'ref')).toEqual({ kind: 'succeeded', reference: 'ref' });
    expect(judgeLostCancel(history([], { sale: 'standing' }), 'ref')).toEqual({ kind: 'unknown' });
    expect(judgeLostCancel(history([], { sale: 'none' }), 'ref')).toEqual({ kind: 'retry' });
    expect(judgeLostCancel(history([], { sale: 'voided', complete: false }), 'ref')).toEqual({ kind: 'retry' });
  });
});
