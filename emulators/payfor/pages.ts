// HTML the emulated PayFor shows the shopper, from the pages every bank emulator shares
// (../bank/pages.ts): the ACS challenge and the page that posts the result back (PayFor's way back
// to OkUrl/FailUrl).
import { bankPages } from '../bank/pages.ts';

export const { autoPostPage, acsPage, errorPage } = bankPages({ bank: 'QNB Finansbank PayFor', resultFormId: 'payfor-3ds-result', issuer: 'QNB Finansbank', minorUnitsNoted: false });
