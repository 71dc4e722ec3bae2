// HTML the emulated EST bank shows the shopper: the page that posts the result back (../bank/pages.ts,
// as every bank emulator), its own error page and its ACS page.
import escapeHtml from 'escape-html';
import { bankPages, decisionForms } from '../bank/pages.ts';

/** A page whose form posts `fields` to `action` as soon as it loads (how EST returns the shopper to the merchant). */
export const { autoPostPage } = bankPages({ bank: 'EST', resultFormId: 'est-callback-form' });

/** EST's own error page: what the gate shows when it cannot even trust the merchant's return addresses. */
export function errorPage(message: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>EST emulator — error</title></head>
<body><h1>İşlem gerçekleştirilemedi</h1><p id="error">${escapeHtml(message)}</p></body></html>`;
}

/** The emulated bank's ACS page: the shopper approves or declines the 3-D Secure challenge. */
export function acsPage(action: string, summary: { amount: string; currency: string; maskedCreditCard: string }): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>EST emulator — 3-D Secure</title></head>
<body>
  <h1>3-D Secure verification (emulated bank)</h1>
  <p>${escapeHtml(summary.amount)} ${escapeHtml(summary.currency)} with the card ${escapeHtml(summary.maskedCreditCard)}</p>
  ${decisionForms(action)}
</body></html>`;
}
