-- A workspace's risk rules join its accounts and routing rules under settingsVersion: every write to
-- them, by any client, bumps the version in the same transaction, and a gateway process keeps a
-- workspace's enabled rules only for the version it read them at (src/domain/risk/rules.ts,
-- liveRules). A payment then reads the rules only after they changed, not on every attempt.
CREATE TRIGGER "RiskRule_settings_version" AFTER INSERT OR UPDATE OR DELETE ON "RiskRule"
  FOR EACH ROW EXECUTE FUNCTION bump_settings_version();
