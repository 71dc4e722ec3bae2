// PostgreSQL cannot be reached: refused, cut off, shutting down or starting up, or no longer the
// primary (a node demoted by a failover refuses writes until the connection leads to the new
// primary: HAProxy cuts it once Patroni says so, and the pool opens a new one). One rule for every
// layer (requests answer 503 with Retry-After, logs say "database unavailable", the stop's
// connection losses are expected), over the errors pg, Prisma's pg adapter and Prisma itself give.
// A pool drops broken connections by itself, so the gateway works again as soon as the server is
// back; nothing here needs to reconnect.

/**
 * SQLSTATEs: class 08 (connection exception), 57P01-57P03 (admin or crash shutdown, cannot connect
 * now), 25006 (a write reached a read-only server: a standby, or a primary that was just demoted).
 * The gateway never opens a read-only transaction itself, so 25006 always means the wrong node.
 */
const UNAVAILABLE_SQLSTATE = /^(08\d{3}|57P0[123]|25006)$/;
/** Node socket errors of a server that is gone or not listening. */
const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** Prisma: can't reach the server (P1001), timed out reaching it (P1002), the server closed the connection (P1017). */
const UNAVAILABLE_PRISMA = new Set(['P1001', 'P1002', 'P1017']);
/**
 * The same as words, for the wrappers that keep only a message: Prisma's raw-query error (P2010)
 * quotes the driver's code and message, pg's own errors for a dropped socket have no code. "Query
 * read timeout" is pg's for a statement unanswered within the pool's query timeout (client.ts): a
 * connection gone silent.
 */
const UNAVAILABLE_MESSAGE =
  /Can't reach database server|Query read timeout|Connection terminated|Client has encountered a connection error|Connection is closed|server closed the connection|Server has closed the connection|terminating connection due to (administrator command|crash of another server process)|the database system is (shutting down|starting up|in recovery mode|not yet accepting connections)|cannot execute \w+( \w+)? in a read-only transaction|Code: `(08\d{3}|57P0[123]|25006)`|ECONNREFUSED|ECONNRESET/;

/** True when `err` (or an error it wraps) says PostgreSQL cannot be reached or is going away. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown; meta?: unknown } | null;
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_SQLSTATE.test(code) || UNREACHABLE_ERRNO.has(code) || UNAVAILABLE_PRISMA.has(code)) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return e.cause !== undefined && e.cause !== err && isDatabaseUnavailable(e.cause, depth + 1);
}

/** PostgreSQL is stopping (not merely unreachable): it ended the session or refuses new ones while it shuts down. */
export function isDatabaseStopping(err: { code?: unknown; message?: unknown }): boolean {
  return err.code === '57P01' || err.code === '57P03' || (typeof err.message === 'string' && /terminating connection due to administrator command|the database system is shutting down/.test(err.message));
}
