import escapeHtml from 'escape-html';

/** A page whose form posts `fields` to `action` as soon as it loads (how EST returns the shopper to the merchant). */
export function autoPostPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n    ');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>EST emulator</title></head>
<body onload="document.forms[0].submit()">
  <form id="est-callback-form" method="post" action="${escapeHtml(action)}">
    ${inputs}
    <noscript><button type="submit">Continue</button></noscript>
  </form>
</body></html>`;
}

/** EST's own error page: what the gate shows when it cannot even trust the merchant's return addresses. */
export function errorPage(message: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>EST emulator — error</title></head>
<body><h1>İşlem gerçekleştirilemedi</h1><p id="error">${escapeHtml(message)}</p></body></html>`;
}

/** The emulated bank's ACS page: the shopper approves or declines the 3-D Secure challenge. */
export function acsPage(action: string, summary: { amount: string; currency: string; maskedCreditCard: string }): string {
  const form = (decision: string, label: string) => `
  <form method="post" action="${escapeHtml(action)}">
    <input type="hidden" name="decision" value="${decision}">
    <button type="submit" id="${decision}">${label}</button>
  </form>`;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>EST emulator — 3-D Secure</title></head>
<body>
  <h1>3-D Secure verification (emulated bank)</h1>
  <p>${escapeHtml(summary.amount)} ${escapeHtml(summary.currency)} with the card ${escapeHtml(summary.maskedCreditCard)}</p>
  ${form('approve', 'Approve')}
  ${form('decline', 'Decline')}
</body></html>`;
}
