-- Keyed jobs (3D expiry, reconciliation, link receipts: src/jobs/agenda.ts, agendaScheduler) are
-- made unique by @agendajs/postgres-backend with
--   SELECT * FROM agenda_jobs WHERE name = $1 AND data->>'key' = $3 LIMIT 1
-- before each insert. Without an index on the key that is a scan of every job of the name, once
-- per 3D payment start: 114-154 ms of database CPU with 200,000 past 3D payments, 0.1 ms with it.
CREATE INDEX IF NOT EXISTS "agenda_jobs_name_key_idx" ON agenda.agenda_jobs (name, (data ->> 'key'));

-- One-time jobs are now removed once they succeed (Agenda's removeOnComplete, src/jobs/agenda.ts);
-- the ones that succeeded before are removed here. Failed, pending and recurring jobs stay.
DELETE FROM agenda.agenda_jobs
WHERE next_run_at IS NULL AND last_finished_at IS NOT NULL AND failed_at IS NULL
  AND repeat_interval IS NULL AND repeat_at IS NULL AND type = 'normal';
