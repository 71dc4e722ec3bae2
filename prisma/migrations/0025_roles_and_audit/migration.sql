-- Dashboard tokens get a role; every existing workspace token keeps full access as an owner.
CREATE TYPE "AccessRole_new" AS ENUM ('owner', 'developer', 'operator', 'viewer', 'support');
ALTER TABLE "AccessToken" ALTER COLUMN "role" TYPE "AccessRole_new"
  USING (CASE WHEN "role"::text = 'dashboard' THEN 'owner' ELSE "role"::text END)::"AccessRole_new";
ALTER TYPE "AccessRole" RENAME TO "AccessRole_old";
ALTER TYPE "AccessRole_new" RENAME TO "AccessRole";
DROP TYPE "AccessRole_old";

-- AlterTable
ALTER TABLE "AccessToken" ALTER COLUMN "role" SET DEFAULT 'owner';

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "workspaceId" UUID,
    "tokenId" UUID NOT NULL,
    "tokenName" TEXT NOT NULL,
    "role" "AccessRole" NOT NULL,
    "requestId" TEXT,
    "operation" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "variables" JSONB NOT NULL,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEntry_workspaceId_createdAt_idx" ON "AuditEntry"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEntry_createdAt_idx" ON "AuditEntry"("createdAt");

-- Append-only: no API updates or deletes audit rows, and the database refuses it too.
CREATE FUNCTION audit_entry_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'AuditEntry is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "AuditEntry_append_only" BEFORE UPDATE OR DELETE ON "AuditEntry"
  FOR EACH ROW EXECUTE FUNCTION audit_entry_append_only();
CREATE TRIGGER "AuditEntry_no_truncate" BEFORE TRUNCATE ON "AuditEntry"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entry_append_only();
