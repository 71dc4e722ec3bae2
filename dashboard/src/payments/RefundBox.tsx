// Money back from the payment page: the amount starts at what is left to refund (the API's
// refundableAmount), the box says "up to" that, and "refund all that is left" asks for it in one
// click; the whole-payment cancel sits beside it. Each asks for a confirmation first. Errors show
// next to the amount (or once above it); the page refetches after a success.
import { useEffect, useState, type FormEvent } from 'react';
import { fill, useT } from '../i18n.ts';
import { Confirm, outcomeOf, type Outcome } from '../ui.tsx';
import { graphql } from '../graphql.ts';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { useMoney } from '../kit/money.ts';
import { useStepUpMutation } from '../people/StepUp.tsx';

const REFUND = graphql(`
  mutation Refund($token: String!, $amount: AmountInput) {
    refundPayment(input: { transaction: { token: $token }, amount: $amount }) { result { successful message } errors { path message } refund { amount type } }
  }
`);
const CANCEL = graphql(`
  mutation Cancel($token: String!) {
    cancelPayment(input: { transaction: { token: $token } }) { result { successful message } errors { path message } refund { amount type } }
  }
`);

type Asking = { kind: 'refund'; amount: string } | { kind: 'cancel' } | null;

const DECIMAL = /^\d+(\.\d+)?$/;

export function RefundBox({ token, refundable, currency, canRefund, canCancel, onDone }: {
  token: string; refundable: string; currency: string; canRefund: boolean; canCancel: boolean; onDone: () => void;
}) {
  const { t } = useT();
  const money = useMoney();
  const [amount, setAmount] = useState(refundable);
  // A refund made here or elsewhere changes what is left: offer the new remainder.
  useEffect(() => setAmount(refundable), [refundable]);
  const [asking, setAsking] = useState<Asking>(null);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, refund] = useStepUpMutation(REFUND);
  const [, cancel] = useStepUpMutation(CANCEL);
  const left = refundable !== '0.00';
  if (!(canRefund && left) && !canCancel) return null;
  const ask = (next: Asking) => (setOutcome(undefined), setAsking(next));
  const run = async (what: NonNullable<Asking>) => {
    const answer = what.kind === 'refund'
      ? outcomeOf(await refund({ token, amount: what.amount.trim() || undefined }), 'refundPayment')
      : outcomeOf(await cancel({ token }), 'cancelPayment');
    setAsking(null);
    setOutcome(answer);
    if (answer?.result?.successful) onDone();
  };
  // What the confirmation repeats: the typed amount as money when it reads as one, else as typed.
  const shown = (a: string) => (DECIMAL.test(a.trim()) ? money(a.trim(), currency) : `${a} ${currency}`);
  return (
    <div className="card refund-box">
      <FieldForm outcome={outcome?.result?.successful ? null : outcome} className="stack" onSubmit={(e: FormEvent) => (e.preventDefault(), ask({ kind: 'refund', amount: amount || refundable }))}>
        <FormErrors />
        {canRefund && left && (
          <>
            <Field name="amount" label={`${t.refundAmount} (${currency})`} hint={fill(t.refundUpTo, { amount: money(refundable, currency) })}>
              <input name="refundAmount" inputMode="decimal" autoComplete="off" value={amount} onChange={(e) => setAmount(e.target.value)} />
            </Field>
            <div className="row">
              <button type="submit">{t.refund}</button>
              <button type="button" onClick={() => (setAmount(refundable), ask({ kind: 'refund', amount: refundable }))}>{fill(t.refundAll, { amount: money(refundable, currency) })}</button>
            </div>
          </>
        )}
        {canCancel && <div className="row"><button type="button" className="danger" onClick={() => ask({ kind: 'cancel' })}>{t.cancel}</button></div>}
      </FieldForm>
      {asking && (
        <Confirm
          text={asking.kind === 'refund' ? fill(t.confirmRefundMoney, { amount: shown(asking.amount) }) : t.confirmCancel}
          onConfirm={() => void run(asking)}
          onDismiss={() => setAsking(null)}
        />
      )}
      {outcome?.result?.successful && <p role="status" className="ok">{t.done}</p>}
    </div>
  );
}
