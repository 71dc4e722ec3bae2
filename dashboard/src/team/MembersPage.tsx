// The workspace's team for owners: members with their role (changed in place), removal (asked
// first; the gateway keeps the last owner), pending invitations, and the invite form.
import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { fill, useT } from '../i18n.ts';
import { Confirm, outcomeOf, type Outcome } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql, type ResultOf } from '../graphql.ts';
import { AccessTokenRole } from '../schema-enums.ts';
import { statusOf } from '../kit/status.ts';
import { useDates } from '../kit/dates.ts';
import { ErrorState, Loading } from '../kit/states.tsx';
import { Field, FieldForm, FormErrors } from '../kit/Field.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { useStepUpMutation } from '../people/StepUp.tsx';

const TEAM = graphql(`
  query Team { members { id email role createdAt } invitations { id email role expiresAt } }
`);
const INVITE = graphql(`
  mutation InviteMember($email: String!, $role: AccessTokenRole!) { inviteMember(email: $email, role: $role) { result { successful message } errors { path message } invitation { id email } } }
`);
const CHANGE = graphql(`
  mutation ChangeMemberRole($id: ID!, $role: AccessTokenRole!) { changeMemberRole(id: $id, role: $role) { result { successful message } errors { path message } member { id role } } }
`);
const REMOVE = graphql(`
  mutation RemoveMember($id: ID!) { removeMember(id: $id) { result { successful message } errors { path message } member { id } } }
`);

const RESEND = graphql(`
  mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { result { successful message } errors { path message } invitation { id expiresAt } } }
`);
const CANCEL = graphql(`
  mutation CancelInvitation($id: ID!) { cancelInvitation(id: $id) { result { successful message } errors { path message } invitation { id } } }
`);

const TEAM_TYPES = { additionalTypenames: ['Member', 'Invitation'] };
type MemberRow = ResultOf<typeof TEAM>['members'][number];
const ROLES = AccessTokenRole.slice().sort((a, b) => ['owner', 'developer', 'operator', 'viewer'].indexOf(a) - ['owner', 'developer', 'operator', 'viewer'].indexOf(b));

export function MembersPage({ viewer }: { viewer: Viewer }) {
  const { t, lang } = useT();
  const dates = useDates(viewer.timeZone);
  const [{ data, error }, reexecute] = useQuery({ query: TEAM, context: TEAM_TYPES });
  const [asking, setAsking] = useState<MemberRow | null>(null);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, change] = useStepUpMutation(CHANGE);
  const [, remove] = useStepUpMutation(REMOVE);
  const [, resend] = useStepUpMutation(RESEND);
  const [, cancel] = useStepUpMutation(CANCEL);
  const canChange = viewer.can('changeMemberRole');
  const canInvite = viewer.can('resendInvitation');
  const onInvitation = async (id: string, email: string, what: 'resend' | 'cancel') => {
    if (what === 'resend') {
      const out = outcomeOf(await resend({ id }, TEAM_TYPES), 'resendInvitation');
      setOutcome(out?.result?.successful ? { result: { successful: true, message: fill(t.invitationSent, { email }) } } : out);
    } else setOutcome(outcomeOf(await cancel({ id }, TEAM_TYPES), 'cancelInvitation'));
    reexecute({ requestPolicy: 'network-only' });
  };
  const confirmRemove = async () => {
    const row = asking!;
    setAsking(null);
    setOutcome(outcomeOf(await remove({ id: row.id }, TEAM_TYPES), 'removeMember'));
  };
  const setRole = async (row: MemberRow, role: AccessTokenRole) => {
    setOutcome(outcomeOf(await change({ id: row.id, role }, TEAM_TYPES), 'changeMemberRole'));
    reexecute({ requestPolicy: 'network-only' });
  };
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">{t.members}</h1>
      <p className="muted">{t.membersHelp}</p>
      {error && <ErrorState message={error.graphQLErrors[0]?.message ?? error.message} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />}
      {!data && !error && <Loading />}
      {data && (
        <CardTable label={t.members} head={[t.email, t.role, t.created, ...(canChange ? [t.actions] : [])]}>
          {data.members.map((m) => (
            <tr key={m.id} data-member={m.email}>
              <td className="wrap">{m.email}</td>
              <td data-field="role">
                {canChange ? (
                  <select aria-label={`${t.role}: ${m.email}`} value={m.role} onChange={(e) => void setRole(m, e.target.value as AccessTokenRole)}>
                    {ROLES.map((r) => <option key={r} value={r}>{statusOf('role', r, lang).label}</option>)}
                  </select>
                ) : statusOf('role', m.role, lang).label}
              </td>
              <td>{dates.dateTime(m.createdAt)}</td>
              {canChange && <td><button type="button" className="danger" onClick={() => setAsking(m)}>{t.removeMember}<span className="sr-only"> {m.email}</span></button></td>}
            </tr>
          ))}
        </CardTable>
      )}
      {asking && <Confirm text={fill(t.confirmRemoveMember, { email: asking.email })} onConfirm={confirmRemove} onDismiss={() => setAsking(null)} />}
      <ActionOutcome outcome={outcome} />
      {data && data.invitations.length > 0 && (
        <>
          <h2>{t.pendingInvitations}</h2>
          <CardTable label={t.pendingInvitations} head={[t.email, t.role, t.expires, ...(canInvite ? [t.actions] : [])]}>
            {data.invitations.map((i) => (
              <tr key={i.id} data-invitation={i.email}>
                <td className="wrap">{i.email}</td>
                <td>{statusOf('role', i.role, lang).label}</td>
                <td>{dates.dateTime(i.expiresAt)}</td>
                {canInvite && (
                  <td>
                    <div className="row">
                      <button type="button" onClick={() => void onInvitation(i.id, i.email, 'resend')}>{t.resendInvitation}<span className="sr-only"> {i.email}</span></button>
                      <button type="button" className="danger" onClick={() => void onInvitation(i.id, i.email, 'cancel')}>{t.cancelInvitation}<span className="sr-only"> {i.email}</span></button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </CardTable>
        </>
      )}
      {viewer.can('inviteMember') && <InviteForm />}
    </section>
  );
}

function InviteForm() {
  const { t, lang } = useT();
  const [form, setForm] = useState<{ email: string; role: AccessTokenRole }>({ email: '', role: 'viewer' });
  const [outcome, setOutcome] = useState<Outcome>();
  const [sent, setSent] = useState<string | null>(null);
  const [, invite] = useStepUpMutation(INVITE);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSent(null);
    const res = await invite(form, TEAM_TYPES);
    const out = outcomeOf(res, 'inviteMember');
    if (out?.result?.successful) {
      setSent(form.email);
      setForm({ email: '', role: 'viewer' });
      setOutcome(undefined);
    } else setOutcome(out);
  };
  return (
    <FieldForm outcome={outcome} className="card stack" onSubmit={submit} aria-labelledby="invite-title">
      <h2 id="invite-title">{t.inviteTitle}</h2>
      <FormErrors />
      <div className="row">
        <Field name="email" label={t.email}><input type="email" autoComplete="off" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} /></Field>
        <Field name="role" label={t.role}>
          <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as AccessTokenRole })}>
            {ROLES.map((r) => <option key={r} value={r}>{statusOf('role', r, lang).label}</option>)}
          </select>
        </Field>
        <div><button type="submit" className="primary">{t.invite}</button></div>
      </div>
      <p className="muted">{t.rolesHelp}</p>
      {sent && <p role="status" className="ok">{fill(t.invitationSent, { email: sent })}</p>}
    </FieldForm>
  );
}
