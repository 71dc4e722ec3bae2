-- The request-limit windows (429s) without WAL. Every call of a workspace adds one to the same
-- row, and a row lock is held until its transaction's commit, which for a logged table waits for
-- the WAL flush: one workspace's calls queued behind each other's disk flushes, and a workspace
-- could not be admitted faster than about 1,200 calls/s however many cores served it (bench:
-- "bare pg: admission", docs/performance.md). Unlogged, the same counting commits without a
-- flush. What it gives up: after a crash of PostgreSQL (not a clean stop) the table comes back
-- empty, so the windows open at the crash restart again; a count of calls, never money.
ALTER TABLE ratelimit.requests SET UNLOGGED;
