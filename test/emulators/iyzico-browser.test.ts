// The 3-D Secure round trip in a real browser: iyzico's threeDSHtmlContent opens the emulator's
// ACS page, the shopper clicks Approve, and the browser posts iyzico's callback to the merchant.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startIyzicoEmulator, type IyzicoEmulator } from '../../emulators/iyzico/server.ts';
import { haveChromium, launchChromium, warnIfNoChromium } from '../helpers/browser.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { iyzipay, iyzipayUtils, paymentRequest } from './iyzipay-client.ts';

warnIfNoChromium('test/emulators/iyzico-browser.test.ts');

let emulator: IyzicoEmulator;
let merchant: Receiver;
let browser: Browser;

beforeAll(async () => {
  emulator = await startIyzicoEmulator();
  merchant = await startReceiver();
  if (haveChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await merchant?.close();
  await emulator?.close();
});

it.skipIf(!haveChromium)('a shopper approves on the ACS page and the browser posts the signed callback; 3DS auth then charges', async () => {
  const client = iyzipay({ apiKey: emulator.apiKey, secretKey: emulator.secretKey, uri: emulator.url });
  const init = await client.call('threedsInitialize', 'create', paymentRequest('5528790000000008', { conversationId: 'browser-1', callbackUrl: `${merchant.url}/cb` }));
  expect(init.status).toBe('success');

  const page = await browser.newPage();
  await page.setContent(Buffer.from(init.threeDSHtmlContent, 'base64').toString('utf8'));
  await page.waitForURL(`${emulator.url}/_emulator/acs/${init.paymentId}`);
  await page.click('#approve');
  const [callback] = await merchant.waitFor(1);
  await page.close();

  expect(callback.method).toBe('POST');
  expect(callback.path).toBe('/cb');
  const fields = Object.fromEntries(new URLSearchParams(callback.body));
  expect(fields).toMatchObject({ status: 'success', paymentId: init.paymentId, conversationId: 'browser-1', mdStatus: '1' });
  const expected = iyzipayUtils.calculateHmacSHA256Signature(
    [fields.conversationData, fields.conversationId, fields.mdStatus, fields.paymentId, fields.status],
    emulator.secretKey,
  );
  expect(fields.signature).toBe(expected);

  const auth = await client.call('threedsPayment', 'create', { paymentId: fields.paymentId, conversationData: fields.conversationData, conversationId: 'browser-1' });
  expect(auth).toMatchObject({ status: 'success', paymentId: init.paymentId, mdStatus: 1 });
});
