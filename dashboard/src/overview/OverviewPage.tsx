// The landing page: the last 7, 30 or 90 days of the workspace's time zone, one block per currency
// (never added together): headline figures, a chart and the same figures as a table, then the most
// frequent decline reasons (in the reader's words, with their codes) and the attempts the risk
// decision stopped, per rule. The kit's loading, error
// (with a retry) and empty states. The figures follow payment events live (live.ts).
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { useT } from '../i18n.ts';
import type { Viewer } from '../viewer.ts';
import { formatters, type Formatters } from './format.ts';
import { ChartLegend } from './ChartLegend.tsx';
import { usePaymentEventsRefresh } from './live.ts';
import { graphql, type Filled, type ResultOf } from '../graphql.ts';
import { Currency } from '../schema-enums.ts';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { statusOf } from '../kit/status.ts';

// uPlot serves this screen only: it comes in its own file with the chart, so the first load of
// every other screen does not carry it. It is fetched while the figures load; the stand-in keeps
// the chart's height (no layout shift).
const loadChart = () => import('./DailyChart.tsx');
const DailyChart = lazy(() => loadChart().then((m) => ({ default: m.DailyChart })));

const OVERVIEW = graphql(`
  query Overview($days: Int!, $currency: String, $slug: String) {
    overview(days: $days, currency: $currency, workspaceSlug: $slug) {
      days timeZone from to
      currencies { currency volume count failed successRate refundAmount refundCount daily { date volume count failed refundAmount refundCount } }
      declines { errorCode message count }
      riskStopped { rule count }
    }
  }
`);

const PERIODS = [7, 30, 90] as const;

// Every figure is filled by the server (successRate aside, which formatters.percent takes null for).
type OverviewData = Filled<NonNullable<ResultOf<typeof OVERVIEW>['overview']>>;
type CurrencyFigures = OverviewData['currencies'][number];

export function OverviewPage({ viewer }: { viewer: Viewer }) {
  const { t, lang } = useT();
  const [days, setDays] = useState<number>(7);
  const [currency, setCurrency] = useState('');
  const variables = { days, currency: currency || undefined, slug: viewer.support ? viewer.slug : undefined };
  const [{ data, error, fetching }, refetch] = useQuery({ query: OVERVIEW, variables });
  // Support staff read one workspace of many: their event stream is every workspace's.
  usePaymentEventsRefresh(() => refetch({ requestPolicy: 'network-only' }), viewer.support);
  useEffect(() => void loadChart(), []);
  const fmt = useMemo(() => formatters(lang, navigator.languages), [lang]);
  const overview = data?.overview as OverviewData | null | undefined;
  return (
    <section aria-labelledby="overview-title" aria-busy={fetching}>
      <h1 id="overview-title">{t.overview}</h1>
      <div className="filters row">
        <fieldset className="periods">
          <legend>{t.overviewPeriod}</legend>
          {PERIODS.map((p) => (
            <label key={p} className="inline">
              <input type="radio" name="days" value={p} checked={days === p} onChange={() => setDays(p)} />
              {t.overviewDays.replace('{n}', String(p))}
            </label>
          ))}
        </fieldset>
        <label>
          {t.currency}
          <select name="currency" value={currency} onChange={(e) => setCurrency(e.target.value)}>
            <option value="">{t.any}</option>
            {Currency.map((c) => <option key={c} value={c}>{`${c} · ${statusOf('currency', c, lang).label}`}</option>)}
          </select>
        </label>
      </div>
      {error && <ErrorState message={error.graphQLErrors[0]?.message ?? error.message} onRetry={() => refetch({ requestPolicy: 'network-only' })} />}
      {!overview && !error && fetching && <Loading rows={6} />}
      {overview && !error && (
        <>
          <p className="muted">{t.overviewRange.replace('{from}', fmt.day(overview.from)).replace('{to}', fmt.day(overview.to)).replace('{zone}', overview.timeZone)}</p>
          {overview.currencies.length === 0 && <Empty>{t.overviewEmpty}</Empty>}
          {overview.currencies.map((c) => <CurrencyBlock key={c.currency} figures={c} fmt={fmt} />)}
          <Declines declines={overview.declines} fmt={fmt} />
          <RiskStopped stopped={overview.riskStopped} fmt={fmt} />
        </>
      )}
    </section>
  );
}

function CurrencyBlock({ figures: c, fmt }: { figures: CurrencyFigures; fmt: Formatters }) {
  const { t } = useT();
  const labels = useMemo(() => ({ volume: t.overviewVolume, count: t.overviewCount }), [t]);
  const id = `overview-${c.currency}`;
  return (
    <section className="card overview-currency" aria-labelledby={id} data-currency={c.currency}>
      <h2 id={id}>{c.currency}</h2>
      <dl className="figures">
        <div><dt>{t.overviewVolume}</dt><dd data-figure="volume">{fmt.money(c.volume, c.currency)}</dd></div>
        <div><dt>{t.overviewCount}</dt><dd data-figure="count">{fmt.count(c.count)}</dd></div>
        <div><dt>{t.overviewSuccessRate}</dt><dd data-figure="successRate">{fmt.percent(c.successRate)}</dd></div>
        <div><dt>{t.refunds}</dt><dd data-figure="refunds">{fmt.money(c.refundAmount, c.currency)} ({fmt.count(c.refundCount)})</dd></div>
      </dl>
      <ChartLegend currency={c.currency} />
      <Suspense fallback={<div className="chart" aria-hidden="true" />}>
        <DailyChart days={c.daily} currency={c.currency} labels={labels} fmt={fmt} />
      </Suspense>
      <div className="table-wrap overview-days" tabIndex={0}>
        <table>
          <caption>{t.overviewDaily.replace('{currency}', c.currency)}</caption>
          <thead>
            <tr><th scope="col">{t.overviewDay}</th><th scope="col">{t.overviewVolume}</th><th scope="col">{t.overviewCount}</th><th scope="col">{t.overviewFailed}</th><th scope="col">{t.refunds}</th></tr>
          </thead>
          <tbody>
            {c.daily.map((d) => (
              <tr key={d.date} data-date={d.date}>
                <th scope="row">{fmt.day(d.date)}</th>
                <td>{fmt.money(d.volume, c.currency)}</td>
                <td>{fmt.count(d.count)}</td>
                <td>{fmt.count(d.failed)}</td>
                <td><span className="nowrap">{fmt.money(d.refundAmount, c.currency)}</span> <span className="nowrap">({fmt.count(d.refundCount)})</span></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Declines({ declines, fmt }: { declines: OverviewData['declines']; fmt: Formatters }) {
  const { t } = useT();
  return (
    <section className="card" aria-labelledby="overview-declines">
      <h2 id="overview-declines">{t.overviewDeclines}</h2>
      {declines.length === 0 ? (
        <Empty>{t.none}</Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table className="declines">
            <thead><tr><th scope="col">{t.declineReason}</th><th scope="col">{t.overviewErrorCode}</th><th scope="col">{t.overviewCount}</th></tr></thead>
            <tbody>
              {declines.map((d) => <tr key={d.errorCode} data-code={d.errorCode}><td className="wrap">{d.message}</td><td><code>{d.errorCode}</code></td><td>{fmt.count(d.count)}</td></tr>)}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function RiskStopped({ stopped, fmt }: { stopped: OverviewData['riskStopped']; fmt: Formatters }) {
  const { t } = useT();
  return (
    <section className="card" aria-labelledby="overview-risk">
      <h2 id="overview-risk">{t.overviewRiskStopped}</h2>
      {stopped.length === 0 ? (
        <Empty>{t.none}</Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table className="declines">
            <thead><tr><th scope="col">{t.overviewRiskRule}</th><th scope="col">{t.overviewCount}</th></tr></thead>
            <tbody>
              {stopped.map((r) => <tr key={r.rule} data-rule={r.rule}><td className="wrap"><code>{r.rule}</code></td><td>{fmt.count(r.count)}</td></tr>)}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
