-- The card-testing guard's window for one source of an attempt (an address, a page or a link):
-- the distinct card fingerprints among its most recent attempts, this card included, and how
-- many of their payments reached a bank and failed. Read by the guard's statement
-- (src/domain/risk/guard.ts) once per source.
--
-- A card the window has not seen yet is what a card-testing run sends, in parallel: attempts sent
-- at the same instant would each count the window without the others and pass a threshold
-- together. So a new card waits for its source's lock (held until the attempt's statement
-- commits, its own attempt row written) and counts again: this function is VOLATILE, so that
-- second count sees the attempts committed while it waited. A card the window already holds adds
-- no card and takes no lock: a busy honest source does not queue.
CREATE FUNCTION risk_window(ws uuid, src_kind text, src_key text, fp text, since timestamp, lim int, OUT cards int, OUT declines int)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  seen boolean;
BEGIN
  FOR pass IN 1..2 LOOP
    SELECT count(DISTINCT r.fingerprint) FILTER (WHERE r.fingerprint <> fp)::int + 1,
           count(p.id) FILTER (WHERE p.status = 'failed' AND p."paymentAccountId" IS NOT NULL)::int,
           coalesce(bool_or(r.fingerprint = fp), false)
      INTO cards, declines, seen
      FROM (SELECT f.fingerprint, f."paymentId" FROM "RiskAttempt" f
            WHERE f."workspaceId" = ws AND f.kind = src_kind AND f.key = src_key AND f.at > since
            ORDER BY f.at DESC LIMIT lim) r
      LEFT JOIN "Payment" p ON p.id = r."paymentId";
    EXIT WHEN seen OR pass = 2;
    PERFORM pg_advisory_xact_lock(hashtextextended('risk-source:' || ws::text || ':' || src_kind || ':' || src_key, 0));
  END LOOP;
END $$;
