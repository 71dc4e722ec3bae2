-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "rateLimitLinksPerMinute" INTEGER,
ADD COLUMN     "rateLimitPerSecond" INTEGER;


-- The request counters of rate-limiter-flexible (429s), shared by every gateway process. In their
-- own schema, like Agenda's, so Prisma's diff leaves them alone.
CREATE SCHEMA IF NOT EXISTS ratelimit;
CREATE TABLE IF NOT EXISTS ratelimit.requests (
    key varchar(255) PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
);
