-- A gateway process remembers what a call's admission read (the credential still live, its
-- workspace row) instead of reading it on every call (src/rest/admission-memory.ts). Every change
-- to either, by any client (the gateway, the CLI, psql), is announced on channel
-- gateway_admission with the workspace's id, and every process forgets that workspace when the
-- notification arrives. The link numbering counters (and the updatedAt their bumps move) are left
-- out: a link creation or payment is not a change of the workspace's admission.
CREATE FUNCTION announce_admission_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'ApiCredential' THEN
    PERFORM pg_notify('gateway_admission', OLD."workspaceId"::text);
  ELSIF TG_OP = 'DELETE' OR (to_jsonb(OLD) - 'linkCounter' - 'linkPaymentCounter' - 'updatedAt')
                          IS DISTINCT FROM (to_jsonb(NEW) - 'linkCounter' - 'linkPaymentCounter' - 'updatedAt') THEN
    PERFORM pg_notify('gateway_admission', OLD.id::text);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Workspace_admission_change" AFTER UPDATE OR DELETE ON "Workspace"
  FOR EACH ROW EXECUTE FUNCTION announce_admission_change();
CREATE TRIGGER "ApiCredential_admission_change" AFTER UPDATE OR DELETE ON "ApiCredential"
  FOR EACH ROW EXECUTE FUNCTION announce_admission_change();
