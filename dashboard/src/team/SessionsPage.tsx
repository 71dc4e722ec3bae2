// The signed-in person's own sessions: device (user agent), address, when it began and was last
// active; ending one signs that browser out at once (its live updates close too).
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { outcomeOf, type Outcome } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import { useDates } from '../kit/dates.ts';
import { ErrorState, Loading } from '../kit/states.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { ZoneNote } from '../kit/ZoneNote.tsx';

const SESSIONS = graphql(`
  query MySessions { mySessions { id userAgent address createdAt lastSeenAt current } }
`);
const END = graphql(`
  mutation RevokeSession($id: ID!) { revokeSession(id: $id) { result { successful message } errors { path message } session { id } } }
`);

const SESSION_TYPES = { additionalTypenames: ['PersonSession'] };

export function SessionsPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const dates = useDates(viewer.timeZone);
  const [{ data, error }, reexecute] = useQuery({ query: SESSIONS, context: SESSION_TYPES });
  const [outcome, setOutcome] = useState<Outcome>();
  const [, end] = useMutation(END);
  const endOne = async (id: string) => {
    setOutcome(outcomeOf(await end({ id }, SESSION_TYPES), 'revokeSession'));
    reexecute({ requestPolicy: 'network-only' });
  };
  return (
    <section aria-labelledby="sessions-title">
      <h1 id="sessions-title">{t.sessions}</h1>
      <p className="muted">{t.sessionsHelp}</p>
      {error && <ErrorState message={error.graphQLErrors[0]?.message ?? error.message} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />}
      {!data && !error && <Loading />}
      {data && (
        <>
          <CardTable label={t.sessions} head={[t.device, t.address, t.created, t.lastSeen, t.actions]}>
            {data.mySessions.map((s) => (
              <tr key={s.id} data-session={s.current ? 'current' : s.id}>
                <td className="wrap">{s.userAgent || '—'}{s.current && <strong> ({t.thisSession})</strong>}</td>
                <td>{s.address}</td>
                <td>{dates.dateTime(s.createdAt)}</td>
                <td>{dates.dateTime(s.lastSeenAt)}</td>
                <td>{!s.current && <button type="button" className="danger" onClick={() => void endOne(s.id)}>{t.endSession}</button>}</td>
              </tr>
            ))}
          </CardTable>
          <ZoneNote timeZone={viewer.timeZone} />
        </>
      )}
      <ActionOutcome outcome={outcome} />
    </section>
  );
}
