// HTML every emulated bank shows the shopper: its ACS challenge (Approve / Decline, the buttons the
// browser tests press), the page that posts the result back to the merchant, and its error page.
import escapeHtml from 'escape-html';

/** How one bank's emulator writes its pages: its name, the id of the form posting the result back and its few differences. */
export interface BankPageStyle {
  /** For titles: "<bank> emulator". */
  bank: string;
  /** The id of the form that posts the 3-D result back to the merchant. */
  resultFormId: string;
  /** The issuer the ACS page names (the bank unless given). */
  issuer?: string;
  /** Whether the ACS page says the amount is in minor units (true unless false). */
  minorUnitsNoted?: boolean;
  /** Pages a phone opens: Turkish, with a viewport (the bank's own card page beside them). */
  mobile?: boolean;
}

export interface BankPages {
  /** A page whose form posts `fields` to `action` as soon as it loads (the way back to the merchant). */
  autoPostPage(action: string, fields: Record<string, string>): string;
  /** The emulated issuer's ACS: the shopper approves or declines the challenge. */
  acsPage(action: string, summary: { amount: string; currency: string; cardMasked: string }): string;
  errorPage(message: string): string;
  /** Any other page of the bank's (its card page), in the same head. */
  page(title: string, body: string, onload?: string): string;
}

/** The Approve and Decline buttons of an ACS page (ids "approve" and "decline", the browser tests press them). */
export function decisionForms(action: string): string {
  const form = (decision: string, label: string) => `
  <form method="post" action="${escapeHtml(action)}">
    <input type="hidden" name="decision" value="${decision}">
    <button type="submit" id="${decision}">${label}</button>
  </form>`;
  return `${form('approve', 'Approve')}
  ${form('decline', 'Decline')}`;
}

/** One bank emulator's pages, in its style. */
export function bankPages(style: BankPageStyle): BankPages {
  const html = style.mobile ? '<html lang="tr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' : '<html><head><meta charset="utf-8">';
  const page = (title: string, body: string, onload?: string) => `<!doctype html>
${html}<title>${escapeHtml(title)}</title></head>
<body${onload ? ` onload="${onload}"` : ''}>
${body}
</body></html>`;
  const name = `${style.bank} emulator`;
  const units = style.minorUnitsNoted === false ? '' : 'minor units, ';
  return {
    page,
    autoPostPage: (action, fields) => {
      const inputs = Object.entries(fields)
        .map(([field, value]) => `<input type="hidden" name="${escapeHtml(field)}" value="${escapeHtml(value)}">`)
        .join('\n    ');
      return page(
        name,
        `  <form id="${escapeHtml(style.resultFormId)}" method="post" action="${escapeHtml(action)}">
    ${inputs}
    <noscript><button type="submit">Continue</button></noscript>
  </form>`,
        'document.forms[0].submit()',
      );
    },
    acsPage: (action, summary) =>
      page(
        `${name} — 3-D Secure`,
        `  <h1>3-D Secure verification (emulated ${escapeHtml(style.issuer ?? style.bank)} ACS)</h1>
  <p>${escapeHtml(summary.amount)} (${units}currency ${escapeHtml(summary.currency)}) with the card ${escapeHtml(summary.cardMasked)}</p>
  ${decisionForms(action)}`,
      ),
    errorPage: (message) =>
      style.mobile
        ? page(name, `<h1>Hata</h1><p>${escapeHtml(message)}</p>`)
        : `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(name)}</title></head><body><h1>Hata</h1><p>${escapeHtml(message)}</p></body></html>`,
  };
}

/** A page whose form posts `fields` to `action` as soon as it loads. */
export function autoPostPage(bank: string, formId: string, action: string, fields: Record<string, string>): string {
  return bankPages({ bank, resultFormId: formId }).autoPostPage(action, fields);
}

/** The emulated issuer's ACS: the shopper approves or declines the challenge. */
export function acsPage(bank: string, action: string, summary: { amount: string; currency: string; cardMasked: string }): string {
  return bankPages({ bank, resultFormId: '' }).acsPage(action, summary);
}

export function errorPage(bank: string, message: string): string {
  return bankPages({ bank, resultFormId: '' }).errorPage(message);
}
