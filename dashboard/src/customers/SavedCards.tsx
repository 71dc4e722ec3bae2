// A customer's saved cards (first digits and last four only, as stored), the default one marked;
// roles that may change cards make one the default or delete it, each after a confirmation.
import { useState } from 'react';
import { useMutation } from 'urql';
import { fill, useT } from '../i18n.ts';
import { Confirm, outcomeOf, type Outcome } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { Empty } from '../kit/states.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { maskedCard } from '../kit/card-brand.ts';

const MAKE_DEFAULT = graphql(`
  mutation DefaultSavedCard($customer: CustomerRefInput!, $card: String!) {
    defaultSavedCard(input: { customer: $customer, savedCard: { token: $card } }) { result { successful message } errors { path message } }
  }
`);
const DELETE = graphql(`
  mutation DeleteSavedCard($customer: CustomerRefInput!, $card: String!) {
    deleteSavedCard(input: { customer: $customer, savedCard: { token: $card } }) { result { successful message } errors { path message } }
  }
`);

export interface SavedCardRow { token: string | null; scheme: string | null; firstDigits: string | null; lastFourDigit: string | null; expiryMonth: string | null; expiryYear: string | null; holderName: string | null; isDefault: boolean | null }
interface CustomerRef { channelReference: string | null; channelToken: string | null }
type Action = { kind: 'default' | 'delete'; card: SavedCardRow };

export function SavedCards({ cards, customer, viewer, onChanged }: { cards: readonly SavedCardRow[]; customer: CustomerRef; viewer: Viewer; onChanged: () => void }) {
  const { t } = useT();
  const [action, setAction] = useState<Action | null>(null);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, makeDefault] = useMutation(MAKE_DEFAULT);
  const [, remove] = useMutation(DELETE);
  const canDefault = viewer.can('defaultSavedCard');
  const canDelete = viewer.can('deleteSavedCard');
  const run = async ({ kind, card }: Action) => {
    const variables = { customer: { channelReference: customer.channelReference, channelToken: customer.channelToken }, card: card.token ?? '' };
    const answer = kind === 'default' ? outcomeOf(await makeDefault(variables), 'defaultSavedCard') : outcomeOf(await remove(variables), 'deleteSavedCard');
    setAction(null);
    setOutcome(answer);
    if (answer?.result?.successful) onChanged();
  };
  const ask = (a: Action) => (setOutcome(undefined), setAction(a));
  return (
    <div className="card">
      <h2 id="saved-cards">{t.savedCards}</h2>
      {cards.length === 0 ? <Empty /> : (
        <ul className="results" data-field="savedCards" aria-labelledby="saved-cards">
          {cards.map((s) => (
            <li key={s.token} data-card={s.token ?? undefined} className="row spread">
              <span>
                <span data-field="card">{maskedCard(s.scheme, s.firstDigits, s.lastFourDigit)} · {t.expiry} {s.expiryMonth}/{s.expiryYear} · {s.holderName}</span>
                {s.isDefault && <> <StatusBadge kind="savedCard" value="default" /></>}
              </span>
              <span className="row">
                {canDefault && !s.isDefault && <button type="button" onClick={() => ask({ kind: 'default', card: s })}>{t.makeDefault}</button>}
                {canDelete && <button type="button" className="danger" onClick={() => ask({ kind: 'delete', card: s })}>{t.delete}</button>}
              </span>
            </li>
          ))}
        </ul>
      )}
      {action && (
        <Confirm
          text={fill(action.kind === 'default' ? t.confirmDefaultCard : t.confirmDeleteCard, { last4: action.card.lastFourDigit ?? '' })}
          onDismiss={() => setAction(null)}
          onConfirm={() => void run(action)}
        />
      )}
      <ActionOutcome outcome={outcome} />
    </div>
  );
}
