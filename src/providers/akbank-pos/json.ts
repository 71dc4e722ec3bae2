// Akbank's API speaks JSON (mewebstudio/pos src/Serializer/AkbankPosSerializer.php, Symfony's
// JsonEncoder over PHP's json_encode): the request body is written as PHP writes it, "/" as "\/"
// and every non-ASCII character as \uXXXX, because the `auth-hash` header signs the body's exact
// bytes and the bank's examples are PHP's. An answer is one JSON object; anything else is none.

/** A request: nested objects of strings and integers, in the bank's field order. */
export type AkbankRequest = { readonly [key: string]: string | number | AkbankRequest };

/** An answer as parsed (the bank's numbers stay numbers: amounts in history lists are 1.01, 30). */
export type AkbankAnswer = Readonly<Record<string, unknown>>;

/** The body as json_encode writes it with Symfony's default flags. */
export function akbankJson(request: AkbankRequest): string {
  return JSON.stringify(request).replace(/[/\u0080-\uffff]/g, (ch) => (ch === '/' ? '\\/' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The answer object; null when the body is not one. */
export function parseAkbankAnswer(text: string): AkbankAnswer | null {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** A nested object of the answer ({} when absent or not an object). */
export function objectAt(answer: AkbankAnswer, key: string): AkbankAnswer {
  const value = answer[key];
  return isObject(value) ? value : {};
}

/** A field as text: strings as they are, numbers as JavaScript writes them, anything else ''. */
export function textAt(answer: AkbankAnswer, key: string): string {
  const value = answer[key];
  return typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/** The list under `key` (its object entries), or null when it is not a list. */
export function listAt(answer: AkbankAnswer, key: string): AkbankAnswer[] | null {
  const value = answer[key];
  return Array.isArray(value) && value.every(isObject) ? (value as AkbankAnswer[]) : null;
}
