// HTML the emulated bank shows the shopper: the ACS challenge and the page that posts the result back.
import escapeHtml from 'escape-html';

/** A page whose form posts `fields` to `action` as soon as it loads (PayFor's way back to OkUrl/FailUrl). */
export function autoPostPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n    ');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>QNB Finansbank PayFor emulator</title></head>
<body onload="document.forms[0].submit()">
  <form id="payfor-3ds-result" method="post" action="${escapeHtml(action)}">
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
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>QNB Finansbank PayFor emulator — 3-D Secure</title></head>
<body>
  <h1>3-D Secure verification (emulated QNB Finansbank ACS)</h1>
  <p>${escapeHtml(summary.amount)} (currency ${escapeHtml(summary.currency)}) with the card ${escapeHtml(summary.cardMasked)}</p>
  ${form('approve', 'Approve')}
  ${form('decline', 'Decline')}
</body></html>`;
}

export function errorPage(message: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>QNB Finansbank PayFor emulator</title></head><body><h1>Hata</h1><p>${escapeHtml(message)}</p></body></html>`;
}
