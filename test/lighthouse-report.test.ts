// `npm run lighthouse` summarises each run's failing audits from Lighthouse's JSON report. An item
// of a failing audit may name no address: Lighthouse 12 lists main-thread work it cannot tie to a
// script as "Unattributable", which once stopped the whole run with "TypeError: Invalid URL".
import { describe, expect, it } from 'vitest';
import { failingAudits } from '../scripts/lighthouse-report.ts';

describe("npm run lighthouse's failing audits", () => {
  it('names the paths of failing audits, skipping items that name no address, and leaves passing audits out', () => {
    const audits = {
      'bootup-time': {
        score: 0.5,
        displayValue: '1.2 s',
        details: {
          items: [
            { url: 'http://127.0.0.1:4000/dashboard/assets/index-abc.js?x=1#token=secret' },
            { url: 'Unattributable' },
            { url: 'http://127.0.0.1:4000/dashboard/assets/index-abc.js' },
            {},
          ],
        },
      },
      'mainthread-work-breakdown': { score: 0.2, details: { items: [{ url: 'Unattributable' }] } },
      'first-contentful-paint': { score: 0.95, numericValue: 900, details: { items: [{ url: 'http://127.0.0.1:4000/x' }] } },
      'manual-check': { score: null },
    };
    expect(failingAudits(audits)).toEqual(['bootup-time (1.2 s): /dashboard/assets/index-abc.js', 'mainthread-work-breakdown']);
  });
});
