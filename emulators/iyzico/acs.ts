import escapeHtml from 'escape-html';

/** An HTML page whose form posts `fields` to `action` as soon as it loads (what iyzico's pages do). */
export function autoPostPage(title: string, action: string, fields: Record<string, string | undefined>): string {
  const inputs = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value!)}">`)
    .join('\n    ');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body onload="document.forms[0].submit()">
  <form id="iyzico-3ds-form" method="post" action="${escapeHtml(action)}">
    ${inputs}
    <noscript><button type="submit">Continue</button></noscript>
  </form>
</body></html>`;
}

/** The emulated bank (ACS) page: the shopper approves or declines the 3-D Secure challenge. */
export function acsPage(action: string, token: string, summary: { amount: string; currency: string; lastFourDigits: string }): string {
  const form = (decision: string, label: string) => `
  <form method="post" action="${escapeHtml(action)}">
    <input type="hidden" name="token" value="${escapeHtml(token)}">
    <input type="hidden" name="decision" value="${decision}">
    <button type="submit" id="${decision}">${label}</button>
  </form>`;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>iyzico emulator — 3-D Secure</title></head>
<body>
  <h1>3-D Secure verification (emulated bank)</h1>
  <p>${escapeHtml(summary.amount)} ${escapeHtml(summary.currency)} with the card ending ${escapeHtml(summary.lastFourDigits)}</p>
  ${form('approve', 'Approve')}
  ${form('decline', 'Decline')}
</body></html>`;
}
