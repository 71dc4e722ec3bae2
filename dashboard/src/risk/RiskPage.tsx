// The Risk screen: the merchant's rules (as sentences, in order, on or off, with the editor and
// its tester over past attempts), the block and allow lists, the attempts the risk decision
// stopped with their reasons, and the sources the card-testing guard blocked. Owners and
// developers change rules and lists; every other role reads them (the buttons follow `can`).
import { useQuery } from 'urql';
import { useT } from '../i18n.ts';
import type { Viewer } from '../viewer.ts';
import { graphql, type Filled, type ResultOf } from '../graphql.ts';
import { Link } from '../ui.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { CardTable } from '../kit/CardTable.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { useCan } from '../kit/can.ts';
import { RulesCard, RULE_FIELDS_FRAGMENT } from './RulesCard.tsx';
import { ListsCard } from './ListsCard.tsx';

export const RISK = graphql(`
  query RiskScreen($slug: String) {
    workspace {
      riskRules { ...RiskRuleFields }
      riskList { id list kind value note createdAt }
      riskSources(first: 20) { token kind key rule blockedAt blocks }
    }
    riskStoppedPayments(first: 50, workspaceSlug: $slug) { token createdAt amount currency channelReference errorCode risk { rules { rule outcome } } }
  }
`, [RULE_FIELDS_FRAGMENT]);

// Lists that start empty name no type, so the document cache would not refetch them after an add.
const RISK_TYPES = { additionalTypenames: ['RiskRule', 'RiskListEntry'] };

// The server fills every field it lists (a payment's risk aside, null before decisions were kept).
export type RiskData = Filled<ResultOf<typeof RISK>>;

export function RiskPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const can = useCan();
  const [{ data: raw, error, fetching }, reexecute] = useQuery({ query: RISK, variables: { slug: viewer.support ? viewer.slug : undefined }, context: RISK_TYPES });
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const data = raw as RiskData | undefined;
  const workspace = raw?.workspace ? data?.workspace : null;
  const writes = can('saveRiskRule') || can('addRiskListEntry');
  return (
    <section aria-labelledby="risk-title" aria-busy={fetching}>
      <h1 id="risk-title">{t.risk}</h1>
      {!writes && !viewer.support && <p className="muted" data-field="readOnly">{t.riskReadOnly}</p>}
      {error && <ErrorState message={error.graphQLErrors[0]?.message ?? error.message} onRetry={reload} />}
      {!data && !error && fetching && <Loading rows={6} />}
      {workspace && <RulesCard rules={workspace.riskRules} onChange={reload} />}
      {workspace && <ListsCard entries={workspace.riskList} onChange={reload} />}
      {data && <Stopped payments={data.riskStoppedPayments} viewer={viewer} />}
      {workspace && <Sources sources={workspace.riskSources} viewer={viewer} />}
    </section>
  );
}

function Stopped({ payments, viewer }: { payments: RiskData['riskStoppedPayments']; viewer: Viewer }) {
  const { t } = useT();
  const money = useMoney();
  const dates = useDates(viewer.timeZone);
  return (
    <section className="card" aria-labelledby="risk-stopped">
      <h2 id="risk-stopped">{t.riskStopped}</h2>
      {payments.length === 0 ? <Empty>{t.riskStoppedEmpty}</Empty> : (
        <CardTable head={[t.created, t.amount, t.reference, t.error, t.riskReasons]}>
          {payments.map((p) => (
            <tr key={p.token} data-stopped={p.token}>
              <td><Link to={`payments/${p.token}`}>{dates.dateTime(p.createdAt)}</Link></td>
              <td>{money(p.amount, p.currency)}</td>
              <td className="wrap">{p.channelReference ?? '—'}</td>
              <td><code>{p.errorCode}</code></td>
              <td className="wrap" data-field="reasons">{(p.risk?.rules ?? []).filter((r) => r.outcome !== 'allow').map((r) => r.rule).join(', ')}</td>
            </tr>
          ))}
        </CardTable>
      )}
    </section>
  );
}

function Sources({ sources, viewer }: { sources: NonNullable<RiskData['workspace']>['riskSources']; viewer: Viewer }) {
  const { t } = useT();
  const dates = useDates(viewer.timeZone);
  const kind = (k: string) => (t as unknown as Record<string, string>)[`risk_source_${k}`] ?? k;
  return (
    <section className="card" aria-labelledby="risk-sources">
      <h2 id="risk-sources">{t.riskSources}</h2>
      {sources.length === 0 ? <Empty>{t.riskSourcesEmpty}</Empty> : (
        <CardTable head={[t.riskSource, t.riskValue, t.riskReasons, t.riskBlockedAt, t.riskBlocks]}>
          {sources.map((s) => (
            <tr key={s.token} data-source={s.key}>
              <td>{kind(s.kind)}</td>
              <td className="wrap"><code>{s.key}</code></td>
              <td><code>{s.rule}</code></td>
              <td>{dates.dateTime(s.blockedAt)}</td>
              <td>{s.blocks}</td>
            </tr>
          ))}
        </CardTable>
      )}
    </section>
  );
}
