// The card as the gateway receives it (API requests, save-card, hosted card forms): one schema,
// and the only parts of a card number that may be stored.
import { z } from 'zod';
import { text } from './validation.ts';

const number = z
  .string({ error: 'invalid_type' })
  // One message for both ends of 12-19 (a zod `max` would report the generic too_long).
  .refine((v) => v.length >= 12 && v.length <= 19, { error: 'card_number_length' })
  .regex(/^\d+$/, { error: 'card_number_digits' });

const securityCode = z.string({ error: 'invalid_type' }).regex(/^\d{3,4}$/, { error: 'security_code_length' });

const cardShape = {
  holderName: text().min(1, { error: 'required' }),
  number,
  securityCode,
  expiryMonth: z.string({ error: 'invalid_type' }).regex(/^(0[1-9]|1[0-2])$/, { error: 'expiry_month_format' }),
  expiryYear: z.string({ error: 'invalid_type' }).regex(/^\d{4}$/, { error: 'expiry_year_format' }),
};

/** A card to charge: payments and hosted card forms (security code required). */
export const cardInput = z.object(cardShape, { error: 'card_required' });

/** A card to store without a payment (save-card): the security code is optional there. */
export const storedCardInput = z.object({ ...cardShape, securityCode: securityCode.nullish() }, { error: 'card_required' });

export type CardInput = z.output<typeof cardInput>;

/** First 8 digits when the number has 16 or more, else the first 6 (contract: Saved card object). */
export function firstDigitsOf(cardNumber: string): string {
  return cardNumber.slice(0, cardNumber.length >= 16 ? 8 : 6);
}

export function lastFourOf(cardNumber: string): string {
  return cardNumber.slice(-4);
}

/** The BIN the provider is asked about: at most the first 8 digits. */
export function binOf(cardNumber: string): string {
  return cardNumber.slice(0, 8);
}

/**
 * Published simulator test numbers whose check digit is wrong (the troy card was documented so).
 * A test-mode workspace takes them as written, so every documented test card keeps working; no real
 * card has such a number, and a live workspace refuses them like any mistyped number.
 */
const TEST_NUMBERS_OUTSIDE_LUHN: ReadonlySet<string> = new Set(['9792030000000004']);

/** Whether a typed number passes the Luhn check, or is a published test number in test mode. */
export function passesCardCheck(digits: string, mode: 'test' | 'live'): boolean {
  return luhnValid(digits) || (mode === 'test' && TEST_NUMBERS_OUTSIDE_LUHN.has(digits));
}

/**
 * The Luhn check digit holds: every real card number passes it, so one that fails was mistyped or
 * made up, and is refused before any bank is asked (docs/decisions.md, "Risk decisions").
 */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (digit < 0 || digit > 9) return false;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}
