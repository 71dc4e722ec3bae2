// `gateway workspace create <team> --plan all`: one command gives a workspace ready to take a
// payment (channel, default simulator account, API key), printed for people and for scripts.
import { describe, expect, it } from 'vitest';
import { useGateway } from './helpers/fixture.ts';
import { cliOn } from './helpers/cli.ts';
import { call } from './helpers/client.ts';
import { paymentBody } from './helpers/payments.ts';
import type { Merchant } from './helpers/gateway.ts';

const { t } = useGateway();
const cli = cliOn(t);

interface SetUpOut { team: string; api_key: string; api_secret: string; channel_token: string; payment_provider_token: string; workspace: { plan: string[]; default_payment_provider_token: string | null } }

describe('workspace create sets a workspace up in one command', () => {
  it('prints a key, a channel and a default simulator account that take a payment at once', async () => {
    const out = await cli.json<SetUpOut>('workspace', 'create', 'shop-one', '--plan', 'all');
    expect(out.workspace.plan).toEqual(['orders', 'saved_cards', 'subscriptions', 'payment_links', 'pay_by_link']);
    expect(out.workspace.default_payment_provider_token).toBe(out.payment_provider_token);
    const creds = { team: out.team, apiKey: out.api_key, apiSecret: out.api_secret };
    const m = { ...creds, channelToken: out.channel_token, accountToken: out.payment_provider_token } as Merchant;
    const pay = await call(t.gateway.baseUrl, creds, 'regular-payment', paymentBody(m));
    expect(pay.status).toBe(200);
    expect(pay.body.result).toEqual({ successful: true, message: null });
  });

  it('prints the same for people, and --bare makes the workspace and key only', async () => {
    const text = await cli.run(['workspace', 'create', 'shop-two', '--channel', 'Mobile']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/channel_token\s+[0-9a-f-]{36}/);
    expect(text.stdout).toMatch(/payment_provider_token\s+[0-9a-f-]{36}\s+\(simulator, default\)/);
    const channels = await t.gateway.services.db.channel.findMany({ where: { workspace: { slug: 'shop-two' } } });
    expect(channels.map((c) => c.name)).toEqual(['Mobile']);

    const bare = await cli.json<Partial<SetUpOut>>('workspace', 'create', 'shop-three', '--bare');
    expect(bare.channel_token).toBeUndefined();
    expect(bare.workspace!.default_payment_provider_token).toBeNull();
  });
});
