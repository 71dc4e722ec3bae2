-- CreateIndex
-- An address's declines for the card-testing guard, read from the declined payments of that
-- address alone (an index range of at most the threshold's rows, nothing when there are none)
-- instead of looking up the payment of each of the address's recent attempts: twenty primary-key
-- reads on every payment from a busy address. It holds only payments with an address, so that no
-- plan can read a workspace's declines through it (they have Payment_declines_idx).
CREATE INDEX "Payment_ip_declines_idx" ON "Payment"("workspaceId", "ip", "createdAt") WHERE (status = 'failed'::"PaymentStatus" AND "paymentAccountId" IS NOT NULL AND ip IS NOT NULL);

-- risk_window as in 0048_risk_window_lock, except that an address's declines come from the index
-- above: its window reads only its attempts' fingerprints.
CREATE OR REPLACE FUNCTION risk_window(ws uuid, src_kind text, src_key text, fp text, since timestamp, lim int, OUT cards int, OUT declines int)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  seen boolean;
BEGIN
  FOR pass IN 1..2 LOOP
    IF src_kind = 'ip' THEN
      SELECT count(DISTINCT r.fingerprint) FILTER (WHERE r.fingerprint <> fp)::int + 1,
             coalesce(bool_or(r.fingerprint = fp), false)
        INTO cards, seen
        FROM (SELECT f.fingerprint FROM "RiskAttempt" f
              WHERE f."workspaceId" = ws AND f.kind = src_kind AND f.key = src_key AND f.at > since
              ORDER BY f.at DESC LIMIT lim) r;
    ELSE
      SELECT count(DISTINCT r.fingerprint) FILTER (WHERE r.fingerprint <> fp)::int + 1,
             count(p.id) FILTER (WHERE p.status = 'failed' AND p."paymentAccountId" IS NOT NULL)::int,
             coalesce(bool_or(r.fingerprint = fp), false)
        INTO cards, declines, seen
        FROM (SELECT f.fingerprint, f."paymentId" FROM "RiskAttempt" f
              WHERE f."workspaceId" = ws AND f.kind = src_kind AND f.key = src_key AND f.at > since
              ORDER BY f.at DESC LIMIT lim) r
        LEFT JOIN "Payment" p ON p.id = r."paymentId";
    END IF;
    EXIT WHEN seen OR pass = 2;
    PERFORM pg_advisory_xact_lock(hashtextextended('risk-source:' || ws::text || ':' || src_kind || ':' || src_key, 0));
  END LOOP;
  IF src_kind = 'ip' THEN
    SELECT count(*)::int INTO declines FROM (
      SELECT 1 FROM "Payment" p
      WHERE p."workspaceId" = ws AND p.ip = src_key AND p.status = 'failed' AND p."paymentAccountId" IS NOT NULL AND p."createdAt" > since
      LIMIT lim) x;
  END IF;
END $$;
