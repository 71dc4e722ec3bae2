-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "settingsVersion" INTEGER NOT NULL DEFAULT 0;

-- Every write to a workspace's payment accounts or routing rules, by any client (the gateway,
-- the CLI, psql), bumps the workspace's settingsVersion in the same transaction. A gateway
-- process keeps a workspace's accounts and rules in memory only for the version it read them at,
-- and every call reads the current version with its workspace (src/rest/admission.ts).
CREATE FUNCTION bump_settings_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Workspace" SET "settingsVersion" = "settingsVersion" + 1
  WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD."workspaceId" ELSE NEW."workspaceId" END;
  IF TG_OP = 'UPDATE' AND OLD."workspaceId" <> NEW."workspaceId" THEN
    UPDATE "Workspace" SET "settingsVersion" = "settingsVersion" + 1 WHERE id = OLD."workspaceId";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "PaymentAccount_settings_version" AFTER INSERT OR UPDATE OR DELETE ON "PaymentAccount"
  FOR EACH ROW EXECUTE FUNCTION bump_settings_version();
CREATE TRIGGER "RoutingRule_settings_version" AFTER INSERT OR UPDATE OR DELETE ON "RoutingRule"
  FOR EACH ROW EXECUTE FUNCTION bump_settings_version();
