// HTML the emulated Garanti BBVA shows the shopper, from the pages every bank emulator shares
// (../bank/pages.ts): the ACS challenge and the page that posts the result back (GVP's way back to
// successurl / errorurl).
import * as pages from '../bank/pages.ts';

const BANK = 'Garanti BBVA';

export const autoPostPage = (action: string, fields: Record<string, string>): string => pages.autoPostPage(BANK, 'garanti-3ds-result', action, fields);
export const acsPage = (action: string, summary: { amount: string; currency: string; cardMasked: string }): string => pages.acsPage(BANK, action, summary);
export const errorPage = (message: string): string => pages.errorPage(BANK, message);
