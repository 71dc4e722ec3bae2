// HTML every emulated bank shows the shopper: its ACS challenge (Approve / Decline, the buttons the
// browser tests press), the page that posts the result back to the merchant, and its error page.
import escapeHtml from 'escape-html';

/** A page whose form posts `fields` to `action` as soon as it loads. */
export function autoPostPage(bank: string, formId: string, action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n    ');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(bank)} emulator</title></head>
<body onload="document.forms[0].submit()">
  <form id="${escapeHtml(formId)}" method="post" action="${escapeHtml(action)}">
    ${inputs}
    <noscript><button type="submit">Continue</button></noscript>
  </form>
</body></html>`;
}

/** The emulated issuer's ACS: the shopper approves or declines the challenge. */
export function acsPage(bank: string, action: string, summary: { amount: string; currency: string; cardMasked: string }): string {
  const form = (decision: string, label: string) => `
  <form method="post" action="${escapeHtml(action)}">
    <input type="hidden" name="decision" value="${decision}">
    <button type="submit" id="${decision}">${label}</button>
  </form>`;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(bank)} emulator — 3-D Secure</title></head>
<body>
  <h1>3-D Secure verification (emulated ${escapeHtml(bank)} ACS)</h1>
  <p>${escapeHtml(summary.amount)} (minor units, currency ${escapeHtml(summary.currency)}) with the card ${escapeHtml(summary.cardMasked)}</p>
  ${form('approve', 'Approve')}
  ${form('decline', 'Decline')}
</body></html>`;
}

export function errorPage(bank: string, message: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(bank)} emulator</title></head><body><h1>Hata</h1><p>${escapeHtml(message)}</p></body></html>`;
}
