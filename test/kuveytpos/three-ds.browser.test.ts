// The full 3-D Secure round trip through Kuveyt Türk's KuveytPOS in a real browser (Debian's
// Chromium through playwright-core): the gateway posted the card to the emulator's 3-D gate, its
// redirect address answers the form the bank gave back, which posts itself to the emulator's ACS;
// the shopper clicks Approve (or Decline), the ACS posts the signed AuthenticationResponse to the
// gateway, which verifies it, asks for the provision with its MD and posts transaction_token to the
// merchant's callback_url. Every request stays on this machine.
import { describe, expect, it } from 'vitest';
import { haveChromium, useBankBrowser, warnIfNoChromium } from '../helpers/browser.ts';
import { useGateway } from '../helpers/fixture.ts';
import { returnPosts } from '../helpers/receiver.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import { seedBankMerchant } from '../helpers/bank.ts';
import { KUVEYT_CARDS, kuveytBankAccount, kuveytCalls, kuveytOrder, useKuveytEmulator } from './helpers.ts';

warnIfNoChromium('test/kuveytpos/three-ds.browser.test.ts');

const { t, receiver: shop } = useGateway({ receiver: true });
const kuveyt = useKuveytEmulator();
const { start, walk, retrieve } = useBankBrowser(shop, () => seedBankMerchant(t, kuveytBankAccount(kuveyt.emulator)), { card: KUVEYT_CARDS.mastercard, prefix: 'KTB' });

describe.skipIf(!haveChromium)('3-D Secure through KuveytPOS in Chromium', { timeout: 120_000 }, () => {
  it('redirect_url -> the bank\u2019s form -> ACS Approve -> the gateway (provision) -> the merchant\u2019s callback with transaction_token', async () => {
    const { m, token, orderId, redirectUrl } = await start();
    const before = shop.requests.length;
    const urls = await walk(redirectUrl, '#approve');

    const received = returnPosts(shop, before);
    expect(received).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ transaction_token: token });
    expect(urls).toEqual(expect.arrayContaining([redirectUrl, `${t.gateway.baseUrl}/checkout/3ds/callback/${token}`]));
    expect(urls.some((u) => u.startsWith(`${kuveyt.emulator.url}/_emulator/acs/`))).toBe(true);
    // The card went server to server: the browser never called the gate itself.
    expect(urls).not.toContain(kuveyt.emulator.gateUrl);
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);

    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(await kuveytOrder(kuveyt.emulator, orderId)).toMatchObject({ responseCode: '00', amount: 10_000 });
    expect(kuveytCalls(t, 'complete3D').filter((c) => JSON.stringify(c).includes(orderId))).toHaveLength(1);
    expect(t.logLines.join('\n')).not.toContain(KUVEYT_CARDS.mastercard);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('Decline on the ACS: the merchant\u2019s callback still gets transaction_token, the payment failed 3ds_failed, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start();
    await walk(redirectUrl, '#decline');
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(await kuveytOrder(kuveyt.emulator, orderId)).toBeUndefined();
  });
});
