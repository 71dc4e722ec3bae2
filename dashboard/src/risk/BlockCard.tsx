// "Block this card" on a payment's page: the payment's token goes to the block list, which lists
// that payment's card by its fingerprint; the page never has the number, nor sends one.
import { useState } from 'react';
import { useMutation } from 'urql';
import { useT } from '../i18n.ts';
import { outcomeOf } from '../ui.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import type { ApiOutcome } from '../kit/field-errors.ts';
import { ADD_ENTRY } from './ListsCard.tsx';

export function BlockCard({ token }: { token: string }) {
  const { t } = useT();
  const [, add] = useMutation(ADD_ENTRY);
  const [outcome, setOutcome] = useState<ApiOutcome | undefined>();
  const done = outcome?.result?.successful === true;
  return (
    <div className="row block-card">
      <button type="button" className="danger" disabled={done} onClick={async () => setOutcome(outcomeOf(await add({ input: { list: 'block', kind: 'card', value: token } }), 'addRiskListEntry'))}>{t.riskBlockCard}</button>
      {done ? <p role="status" className="ok">{t.riskCardBlocked}</p> : <ActionOutcome outcome={outcome} />}
    </div>
  );
}
