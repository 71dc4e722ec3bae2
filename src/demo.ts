// The demo workspace of DESIGN.md, created on the first start with an empty database.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from './db/client.ts';
import type { Logger } from './logger.ts';
import { ALL_FEATURES, createAccessToken, createChannel, createPaymentAccount, createWorkspace } from './domain/workspaces.ts';

export interface DemoCredentials {
  base_url: string;
  team: string;
  api_key: string;
  api_secret: string;
  channel_token: string;
  payment_provider_token: string;
  /** A dashboard access token of the demo workspace (only its hash is in the database). */
  dashboard_token: string;
}

export async function seedDemo(db: Db, masterKey: Buffer, baseUrl: string, dataDir: string, logger: Logger): Promise<DemoCredentials | null> {
  if ((await db.workspace.count()) > 0) return null;
  let created;
  try {
    created = await createWorkspace(db, masterKey, { slug: 'demo', name: 'Demo', plan: ALL_FEATURES });
  } catch (err) {
    // Another process starting on the same empty database seeded it first.
    if ((err as { code?: string }).code === 'P2002') return null;
    throw err;
  }
  const channel = await createChannel(db, 'demo', 'Demo channel');
  const account = await createPaymentAccount(db, 'demo', { name: 'Simulator', isDefault: true });
  const demo: DemoCredentials = {
    base_url: baseUrl,
    team: 'demo',
    api_key: created.credentials.apiKey,
    api_secret: created.credentials.apiSecret,
    channel_token: channel.id,
    payment_provider_token: account.id,
    dashboard_token: await createAccessToken(db, 'demo', 'demo dashboard'),
  };
  const file = path.join(dataDir, 'demo-credentials.json');
  writeFileSync(file, JSON.stringify(demo, null, 2) + '\n', { mode: 0o600 });
  logger.info('demo workspace created', { file });
  process.stdout.write(demoBanner(demo, file));
  return demo;
}

export function demoBanner(d: DemoCredentials, file: string): string {
  const body = '{"card":{"bin":"41111111"},"transaction":{"amount":"100.00","currency":"TRY"}}';
  return [
    '',
    'Demo workspace created (also saved to ' + file + '):',
    `  team                    ${d.team}`,
    `  api_key                 ${d.api_key}`,
    `  api_secret              ${d.api_secret}`,
    `  channel_token           ${d.channel_token}`,
    `  payment_provider_token  ${d.payment_provider_token}`,
    '',
    `Dashboard sign-in: ${dashboardLink(d.base_url, d.dashboard_token)}`,
    '',
    'Try a signed call:',
    `  BODY='${body}'; curl -sS -X POST ${d.base_url}/api/${d.team}/gateway/retrieve-bin -H 'Content-Type: application/json' -H 'X-Api-Key: ${d.api_key}' -H "X-Signature: $(printf '%s' "$BODY" | openssl dgst -sha256 -hmac '${d.api_secret}' | sed 's/^.* //')" -d "$BODY"`,
    '',
  ].join('\n');
}

/** The token rides in the fragment, which browsers never send; the dashboard drops it at once. */
export const dashboardLink = (baseUrl: string, token: string) => `${baseUrl}/dashboard/#token=${encodeURIComponent(token)}`;

/** Later starts: the sign-in link again, from the credentials file the first start wrote. */
export function demoSignInLine(dataDir: string, baseUrl: string): string | null {
  const file = path.join(dataDir, 'demo-credentials.json');
  if (!existsSync(file)) return null;
  try {
    const d = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoCredentials>;
    return d.dashboard_token ? `Dashboard sign-in (demo workspace): ${dashboardLink(baseUrl, d.dashboard_token)}\n` : null;
  } catch {
    return null;
  }
}
