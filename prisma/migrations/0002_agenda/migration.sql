-- Agenda 6 job table (from @agendajs/postgres-backend getCreate*SQL), in its own schema so it
-- stays out of Prisma's diff. Created here, not by Agenda at connect, because two processes
-- starting on an empty database race on Agenda's own schema creation.
CREATE SCHEMA IF NOT EXISTS agenda;
SET LOCAL search_path TO agenda;
CREATE TABLE IF NOT EXISTS "agenda_jobs" (
			id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
			name VARCHAR(255) NOT NULL,
			priority INTEGER NOT NULL DEFAULT 0,
			next_run_at TIMESTAMPTZ,
			type VARCHAR(10) NOT NULL DEFAULT 'normal' CHECK (type IN ('normal', 'single')),
			locked_at TIMESTAMPTZ,
			last_finished_at TIMESTAMPTZ,
			failed_at TIMESTAMPTZ,
			fail_count INTEGER DEFAULT NULL,
			fail_reason TEXT,
			repeat_timezone VARCHAR(100),
			last_run_at TIMESTAMPTZ,
			repeat_interval VARCHAR(255),
			data JSONB DEFAULT '{}'::jsonb,
			repeat_at VARCHAR(255),
			disabled BOOLEAN DEFAULT FALSE,
			progress REAL,
			fork BOOLEAN DEFAULT FALSE,
			last_modified_by VARCHAR(255),
			debounce_started_at TIMESTAMPTZ,
			start_date TIMESTAMPTZ,
			end_date TIMESTAMPTZ,
			skip_days JSONB,
			created_at TIMESTAMPTZ DEFAULT NOW(),
			updated_at TIMESTAMPTZ DEFAULT NOW()
		);
CREATE INDEX IF NOT EXISTS "agenda_jobs_find_and_lock_idx"
		 ON "agenda_jobs" (name, next_run_at, priority DESC, locked_at, disabled)
		 WHERE disabled = FALSE;
CREATE UNIQUE INDEX IF NOT EXISTS "agenda_jobs_single_job_idx"
		 ON "agenda_jobs" (name) WHERE type = 'single';
CREATE INDEX IF NOT EXISTS "agenda_jobs_locked_at_idx"
		 ON "agenda_jobs" (locked_at) WHERE locked_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS "agenda_jobs_next_run_at_idx"
		 ON "agenda_jobs" (next_run_at) WHERE next_run_at IS NOT NULL;
CREATE OR REPLACE FUNCTION update_agenda_jobs_updated_at()
		RETURNS TRIGGER AS $$
		BEGIN
			NEW.updated_at = NOW();
			RETURN NEW;
		END;
		$$ LANGUAGE plpgsql;

		DROP TRIGGER IF EXISTS "agenda_jobs_updated_at_trigger" ON "agenda_jobs";

		CREATE TRIGGER "agenda_jobs_updated_at_trigger"
		BEFORE UPDATE ON "agenda_jobs"
		FOR EACH ROW
		EXECUTE FUNCTION update_agenda_jobs_updated_at();
