// The 3D Pay round trip in a real browser: the merchant's page posts the gate form, the emulated ACS
// page shows, the shopper clicks Approve, and the browser posts GVP's signed callback to successurl.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { autoPostPage } from '../../emulators/garanti/pages.ts';
import { callbackHash } from '../../emulators/garanti/hash.ts';
import { startGarantiEmulator, type GarantiEmulator } from '../../emulators/garanti/server.ts';
import { haveChromium, launchChromium, warnIfNoChromium } from '../helpers/browser.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { gateForm } from './garanti-client.ts';

warnIfNoChromium('test/emulators/garanti-browser.test.ts');

let emulator: GarantiEmulator;
let merchant: Receiver;
let browser: Browser;

beforeAll(async () => {
  emulator = await startGarantiEmulator({ port: 0 });
  merchant = await startReceiver();
  if (haveChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await merchant?.close();
  await emulator?.stop();
});

it.skipIf(!haveChromium)('a shopper approves on the ACS page and the browser posts the signed 3D Pay callback to successurl', async () => {
  const form = gateForm(emulator, { orderId: 'BROWSER1', amount: '2550', level: '3D_PAY', card: '4282209027132016', successUrl: `${merchant.url}/ok`, errorUrl: `${merchant.url}/fail` });
  const page = await browser.newPage();
  await page.setContent(autoPostPage(emulator.gateUrl, form));
  await page.waitForSelector('#approve');
  await page.click('#approve');
  const [callback] = await merchant.waitFor(1);
  await page.close();

  expect(callback!.method).toBe('POST');
  expect(callback!.path).toBe('/ok');
  const fields = Object.fromEntries(new URLSearchParams(callback!.body));
  expect(fields).toMatchObject({ mdstatus: '1', procreturncode: '00', response: 'Approved', orderid: 'BROWSER1', txnamount: '2550' });
  expect(fields.hash).toBe(callbackHash(fields, emulator.storeKey).hash);
  expect(callback!.body).not.toContain('4282209027132016');
});
