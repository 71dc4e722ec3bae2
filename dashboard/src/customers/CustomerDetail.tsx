// One customer: contact data as the merchant's requests gave it, the newest payments, saved cards
// (first digits and last four only, as stored) and subscriptions, each linked to its record.
import { useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { Link } from '../ui.tsx';
import { customerName } from '../search/SearchPage.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { CustomerPayments } from './CustomerPayments.tsx';
import { CustomerSubscriptions } from './CustomerSubscriptions.tsx';
import { SavedCards } from './SavedCards.tsx';

const CUSTOMER = graphql(`
  query Customer($token: String!) {
    customer(token: $token) {
      token channelReference channelToken firstname lastname email phone address district province country paymentCount createdAt
      payments { token amount currency status paymentStatus channelReference cardLastFourDigits createdAt }
      savedCards { token scheme firstDigits lastFourDigit expiryMonth expiryYear holderName isDefault }
      subscriptions { token channelReference status period amount currency endsAt }
    }
  }
`);

export function CustomerDetail({ token, viewer }: { token: string; viewer: Viewer }) {
  const { t } = useT();
  const { dateTime } = useDates(viewer.timeZone);
  const [{ data, error }, reexecute] = useQuery({ query: CUSTOMER, variables: { token } });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const c = data?.customer;
  return (
    <section aria-labelledby="customer-title">
      <Link to="customers">← {t.back}</Link>
      <h1 id="customer-title">{c ? customerName(c) : t.customer}</h1>
      {error && !data && <ErrorState message={error.message} onRetry={reload} />}
      {!data && !error && <Loading rows={6} />}
      {data && !c && <Empty>{t.notFound}</Empty>}
      {c && (
        <>
          <dl aria-label={t.contact}>
            <dt>{t.reference}</dt><dd data-field="channelReference">{c.channelReference}</dd>
            <dt>{t.email}</dt><dd data-field="email">{c.email ?? '—'}</dd>
            <dt>{t.phone}</dt><dd data-field="phone">{c.phone ?? '—'}</dd>
            <dt>{t.address}</dt><dd data-field="address">{[c.address, c.district, c.province, c.country].filter(Boolean).join(', ') || '—'}</dd>
            <dt>{t.created}</dt><dd>{dateTime(c.createdAt)}</dd>
          </dl>
          <ZoneNote timeZone={viewer.timeZone} />
          <CustomerPayments payments={c.payments ?? []} count={c.paymentCount} timeZone={viewer.timeZone} />
          <SavedCards cards={c.savedCards ?? []} customer={{ channelReference: c.channelReference, channelToken: c.channelToken }} viewer={viewer} onChanged={reload} />
          <CustomerSubscriptions subscriptions={c.subscriptions ?? []} timeZone={viewer.timeZone} />
        </>
      )}
    </section>
  );
}
