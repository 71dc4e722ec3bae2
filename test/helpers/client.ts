// Signed REST calls as a merchant makes them: the signature is over the exact bytes sent.
import { signBody, signTimestamped } from '../../src/domain/signatures.ts';
import { openApiProblems } from './openapi.ts';

export interface MerchantCredentials {
  team: string;
  apiKey: string;
  apiSecret: string;
}

export interface CallOptions {
  /** 'body' (default) signs the raw body; 'timestamp' signs `<ts>\nPOST\n<path>\n<body>`. */
  form?: 'body' | 'timestamp';
  timestamp?: number;
  headers?: Record<string, string>;
  /** Send these bytes instead of JSON.stringify(body). */
  raw?: string;
  /** Sign these bytes instead of the ones sent (to forge a mismatch). */
  signRaw?: string;
  secret?: string;
  apiKey?: string;
  team?: string;
  /** The body carries keys the document does not list, for a workspace that ignores unknown keys: the request is not checked against the document. */
  unlistedKeys?: boolean;
  /** Ends the call unanswered (a client's own timeout). */
  signal?: AbortSignal;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies loosely
export async function call<T = any>(baseUrl: string, creds: MerchantCredentials, operation: string, body: unknown, opts: CallOptions = {}): Promise<CallResult<T>> {
  const team = opts.team ?? creds.team;
  const path = `/api/${team}/gateway/${operation}`;
  const raw = opts.raw ?? JSON.stringify(body);
  const signed = opts.signRaw ?? raw;
  const secret = opts.secret ?? creds.apiSecret;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Api-Key': opts.apiKey ?? creds.apiKey };
  if ((opts.form ?? 'body') === 'timestamp') {
    const ts = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
    headers['X-Timestamp'] = ts;
    headers['X-Signature'] = signTimestamped(secret, ts, 'POST', path, signed);
  } else {
    headers['X-Signature'] = signBody(secret, signed);
  }
  Object.assign(headers, opts.headers);
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
  const res = await fetch(baseUrl + path, { method: 'POST', headers, body: raw, signal: opts.signal });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  // Every exchange of the suite must match the served OpenAPI document (test/helpers/openapi.ts).
  const problems = openApiProblems(path, opts.unlistedKeys ? null : raw, res.status, parsed);
  if (problems.length > 0) throw new Error(`OpenAPI drift on ${operation}:\n${problems.join('\n')}`);
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}
