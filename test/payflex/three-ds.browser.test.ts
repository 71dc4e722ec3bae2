// The full 3-D Secure round trip through VakıfBank's PayFlex in a real browser (Debian's Chromium
// through playwright-core): the gateway has asked the emulated MPI (server to server) and its
// redirect address answers the ACS form, which posts itself to the emulator's ACS; the shopper
// clicks Approve (or Decline), the MPI's result goes through the browser to the gateway, which
// checks its seal, makes the 3-D sale and posts transaction_token to the merchant's callback_url.
// Every request stays on this machine.
import { describe, expect, it } from 'vitest';
import { haveChromium, useBankBrowser, warnIfNoChromium } from '../helpers/browser.ts';
import { useGateway } from '../helpers/fixture.ts';
import { returnPosts } from '../helpers/receiver.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import { bankCalls } from '../helpers/bank.ts';
import { PAYFLEX_CARDS, payflexOrder, seedPayflexMerchant, usePayflexEmulator } from './helpers.ts';

warnIfNoChromium('test/payflex/three-ds.browser.test.ts');

const { t, receiver: shop } = useGateway({ receiver: true });
const payflex = usePayflexEmulator();
const { start, walk, retrieve } = useBankBrowser(shop, () => seedPayflexMerchant(t, payflex.emulator), { card: PAYFLEX_CARDS.approved, prefix: 'VFB' });

describe.skipIf(!haveChromium)('3-D Secure through PayFlex in Chromium', { timeout: 120_000 }, () => {
  it('model 3d: redirect_url -> ACS form -> ACS Approve -> the gateway -> 3-D sale -> the merchant\u2019s callback with transaction_token', async () => {
    const { m, token, orderId, redirectUrl } = await start();
    const before = shop.requests.length;
    const urls = await walk(redirectUrl, '#approve');

    const received = returnPosts(shop, before);
    expect(received).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ transaction_token: token });
    expect(urls).toEqual(expect.arrayContaining([redirectUrl, `${t.gateway.baseUrl}/checkout/3ds/callback/${token}`]));
    expect(urls.some((u) => u.startsWith(`${payflex.emulator.url}/_emulator/acs/`))).toBe(true);
    // The browser never talks to the MPI's enrollment or the VPOS: the gateway does.
    expect(urls.some((u) => u === payflex.emulator.enrollmentUrl || u === payflex.emulator.apiUrl)).toBe(false);
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);

    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect((await payflexOrder(payflex.emulator, orderId))!.txns).toEqual([expect.objectContaining({ type: 'Sale', code: '0000', amount: 10_000 })]);
    expect(bankCalls(t, 'payflex', 'complete3D').filter((c) => JSON.stringify(c).includes(orderId))).toHaveLength(1);
    expect(t.logLines.join('\n')).not.toContain(PAYFLEX_CARDS.approved);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('Decline on the ACS: the merchant\u2019s callback still gets transaction_token, the payment failed 3ds_failed, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start();
    await walk(redirectUrl, '#decline');
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(await payflexOrder(payflex.emulator, orderId)).toBeUndefined();
  });
});
