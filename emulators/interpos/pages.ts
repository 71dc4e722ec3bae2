// HTML the emulated bank shows the shopper: the 3D Host card page, the ACS challenge and the page
// that posts the result back.
import escapeHtml from 'escape-html';

const page = (title: string, body: string) => `<!doctype html>
<html lang="tr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
${body}
</body></html>`;

/** A page whose form posts `fields` to `action` as soon as it loads (InterPOS's way back to OkUrl/FailUrl). */
export function autoPostPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n    ');
  return `<!doctype html>
<html lang="tr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>InterPOS emulator</title></head>
<body onload="document.forms[0].submit()">
  <form id="interpos-3ds-result" method="post" action="${escapeHtml(action)}">
    ${inputs}
    <noscript><button type="submit">Continue</button></noscript>
  </form>
</body></html>`;
}

/** The emulated issuer's ACS: the shopper approves or declines the 3-D Secure challenge. */
export function acsPage(action: string, summary: { amount: string; currency: string; cardMasked: string }): string {
  const form = (decision: string, label: string) => `
  <form method="post" action="${escapeHtml(action)}">
    <input type="hidden" name="decision" value="${decision}">
    <button type="submit" id="${decision}">${label}</button>
  </form>`;
  return page(
    'InterPOS emulator — 3-D Secure',
    `  <h1>3-D Secure verification (emulated Denizbank ACS)</h1>
  <p>${escapeHtml(summary.amount)} (currency ${escapeHtml(summary.currency)}) with the card ${escapeHtml(summary.cardMasked)}</p>
  ${form('approve', 'Approve')}
  ${form('decline', 'Decline')}`,
  );
}

/** The 3D Host model's card page: InterPOS, not the merchant, asks for the card. */
export function cardPage(action: string, summary: { amount: string; currency: string }): string {
  return page(
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

export function errorPage(message: string): string {
  return page('InterPOS emulator', `<h1>Hata</h1><p>${escapeHtml(message)}</p>`);
}
