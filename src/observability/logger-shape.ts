// What a logger offers its callers, apart from how its lines are written (src/logger.ts), so that
// the request's context (context.ts) can carry one without importing the writer, which reads it.
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger whose every line carries `bindings` too. */
  child(bindings: Record<string, unknown>): Logger;
}
