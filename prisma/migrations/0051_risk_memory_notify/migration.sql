-- A gateway process may judge a quiet source's next attempts from the guard's last count instead
-- of counting each one (src/domain/risk/memory.ts). A payment refused by a bank changes the
-- declines every window of its workspace reads, so every such payment, written by any client, is
-- announced on channel gateway_risk with the workspace's id, and every process forgets what it
-- remembers of that workspace when the notification arrives.
CREATE FUNCTION announce_risk_decline() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gateway_risk', NEW."workspaceId"::text);
  RETURN NULL;
END $$;

CREATE TRIGGER "Payment_risk_decline" AFTER INSERT OR UPDATE OF status, "paymentAccountId" ON "Payment"
  FOR EACH ROW WHEN (NEW.status = 'failed' AND NEW."paymentAccountId" IS NOT NULL)
  EXECUTE FUNCTION announce_risk_decline();
