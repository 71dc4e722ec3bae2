// InterPOS's serialiser, as mewebstudio/pos src/Serializer/InterPosSerializer.php: a request is an
// HTML form body (application/x-www-form-urlencoded, PHP's http_build_query: fields without a
// value are left out); an answer is `Name=value` pairs joined by ";;" (sometimes ";;;"). A value
// is everything after its name's first '=' (mewebstudio keeps only up to a second '=', which cuts
// a base64 value short; nothing here reads such a value, but support sees it whole).

/** A request as InterPOS takes it: field name -> value; undefined leaves the field out. */
export type InterPosRequest = Readonly<Record<string, string | undefined>>;

/** The answer's fields by name. */
export type InterPosAnswer = Readonly<Record<string, string>>;

/** The form body. */
export function encodeRequest(request: InterPosRequest): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(request)) if (value !== undefined) form.append(name, value);
  return form.toString();
}

/**
 * The answer's fields; null when the body is not such an answer (an HTML error page, a cut-off
 * body): every part must be `Name=value`, and InterPOS always says ProcReturnCode.
 */
export function decodeAnswer(raw: string): InterPosAnswer | null {
  const text = raw.trim();
  if (text === '' || text.startsWith('<')) return null;
  const answer: Record<string, string> = {};
  for (const part of text.split(/;;;|;;/)) {
    // A trailing separator leaves an empty part: nothing to read there.
    if (part === '') continue;
    const at = part.indexOf('=');
    if (at <= 0) return null;
    const name = part.slice(0, at);
    if (!/^[A-Za-z0-9_]+$/.test(name)) return null;
    answer[name] = part.slice(at + 1);
  }
  return 'ProcReturnCode' in answer ? answer : null;
}
