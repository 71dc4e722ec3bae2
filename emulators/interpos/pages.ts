// HTML the emulated InterPOS shows the shopper, from the pages every bank emulator shares
// (../bank/pages.ts): the 3D Host card page, the ACS challenge and the page that posts the result
// back (InterPOS's way back to OkUrl/FailUrl).
import escapeHtml from 'escape-html';
import { bankPages } from '../bank/pages.ts';

const pages = bankPages({ bank: 'InterPOS', resultFormId: 'interpos-3ds-result', issuer: 'Denizbank', minorUnitsNoted: false, mobile: true });

export const { autoPostPage, acsPage, errorPage } = pages;

/** The 3D Host model's card page: InterPOS, not the merchant, asks for the card. */
export function cardPage(action: string, summary: { amount: string; currency: string }): string {
  return pages.page(
    'InterPOS emulator — card',
    `  <h1>Kart bilgileri (emulated InterPOS 3D Host)</h1>
  <p>${escapeHtml(summary.amount)} (currency ${escapeHtml(summary.currency)})</p>
  <form id="interpos-card" method="post" action="${escapeHtml(action)}">
    <label>Kart numarası <input name="Pan" autocomplete="cc-number" inputmode="numeric" required></label>
    <label>Son kullanma (AAYY) <input name="Expiry" autocomplete="cc-exp" inputmode="numeric" required></label>
    <label>CVV2 <input name="Cvv2" autocomplete="cc-csc" inputmode="numeric" required></label>
    <button type="submit" id="pay">Öde</button>
  </form>`,
  );
}
