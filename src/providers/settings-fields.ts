// Settings and codes every connector reads the same way.
import { z } from 'zod';
import type { Currency } from './types.ts';
import { MAX_TIMEOUT_MS } from './exchange.ts';

/** How long one call waits before its outcome counts as unknown (then asked later): 1 s to the contract's 2 minutes, 60 s by default. */
export const timeoutSetting = () =>
  z.coerce
    .number({ error: 'timeout_range' })
    .int({ error: 'timeout_range' })
    .min(1_000, { error: 'timeout_range' })
    .max(MAX_TIMEOUT_MS, { error: 'timeout_range' })
    .default(60_000);

/** ISO 4217 numeric codes, as banks' virtual POS name currencies. */
export const ISO_NUMERIC_CURRENCY: Readonly<Record<Currency, string>> = { TRY: '949', USD: '840', EUR: '978', GBP: '826' };
