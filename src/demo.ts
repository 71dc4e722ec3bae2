// The demo workspace (every feature on, one channel, one simulator account as default), created
// on a development start with an empty database (docs/decisions.md, "Availability and the demo workspace").
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from './db/client.ts';
import type { Logger } from './logger.ts';
import { ALL_FEATURES, createChannel, createPaymentAccount, createWorkspace } from './domain/workspaces.ts';
import { createAccessToken } from './domain/access-tokens.ts';
import { createInvitation } from './domain/people/members.ts';
import { systemClock } from './domain/clock.ts';

export interface DemoCredentials {
  base_url: string;
  team: string;
  api_key: string;
  api_secret: string;
  channel_token: string;
  payment_provider_token: string;
  /** A dashboard access token of the demo workspace (only its hash is in the database): GraphiQL, scripts. */
  dashboard_token: string;
  /** Who the first owner's invitation is for: the e-mail to sign in with after accepting it. */
  owner_email: string;
}

export const DEMO_OWNER_EMAIL = 'owner@demo.example';

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
    owner_email: DEMO_OWNER_EMAIL,
  };
  // The first owner's invitation: whoever opens dashboard_url sets the owner's password.
  const { link } = await createInvitation({ db, baseUrl, clock: systemClock }, created.workspace, { label: 'demo setup', role: 'owner' }, { email: DEMO_OWNER_EMAIL, role: 'owner' });
  const file = demoCredentialsFile(dataDir);
  writeFileSync(file, JSON.stringify({ ...demo, dashboard_url: link }, null, 2) + '\n', { mode: 0o600 });
  logger.info('demo workspace created', { file });
  process.stdout.write(demoBanner(demo, file));
  return demo;
}

export const demoCredentialsFile = (dataDir: string) => path.join(dataDir, 'demo-credentials.json');

/** The demo workspace's dashboard token from its credentials file; null when there is none (or it cannot be read). */
export function readDemoToken(dataDir: string): string | null {
  try {
    const token = (JSON.parse(readFileSync(demoCredentialsFile(dataDir), 'utf8')) as Partial<DemoCredentials>).dashboard_token;
    return typeof token === 'string' && token ? token : null;
  } catch {
    return null;
  }
}

/**
 * What the first start prints. Never a secret (logs are collected, shared and kept): the team and
 * the identifiers (API key, channel and account tokens), which sign nothing on their own, and
 * where the file with the API secret and the dashboard sign-in link is. The curl line reads the
 * secret from that file when it runs.
 */
export function demoBanner(d: DemoCredentials, file: string): string {
  const body = '{"card":{"bin":"41111111"},"transaction":{"amount":"100.00","currency":"TRY"}}';
  const secret = `$(node -p 'require(process.argv[1]).api_secret' ${shellQuote(file)})`;
  return [
    '',
    `Demo workspace created. Its API secret and the first owner's dashboard invitation (dashboard_url, for ${d.owner_email}) are in ${file} (readable by you only):`,
    `  team                    ${d.team}`,
    `  api_key                 ${d.api_key}`,
    `  channel_token           ${d.channel_token}`,
    `  payment_provider_token  ${d.payment_provider_token}`,
    '',
    'Try a signed call:',
    `  BODY='${body}'; SECRET="${secret}"; curl -sS -X POST ${d.base_url}/api/${d.team}/gateway/retrieve-bin -H 'Content-Type: application/json' -H 'X-Api-Key: ${d.api_key}' -H "X-Signature: $(printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')" -d "$BODY"`,
    '',
  ].join('\n');
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;


/** Later starts: where the demo credentials are (the file the first start wrote), never the secrets themselves. */
export function demoCredentialsLine(dataDir: string): string | null {
  const file = demoCredentialsFile(dataDir);
  return existsSync(file) ? `Demo workspace credentials and dashboard sign-in link: ${file}\n` : null;
}
