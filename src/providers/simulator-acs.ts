// The simulator's ACS: the page a real issuer would show the cardholder, with Approve and Decline
// buttons. Like a bank's, it posts its answer to the callback address the payment was started
// with, signed with a key only this gateway holds (derived from its master key, so every process
// and every restart agrees), and the simulator connector checks that signature as a real
// connector checks its bank's. What the page shows travels in its signed address, so the ACS keeps
// no state of its own. Like a bank's ACS in an embedded checkout, it opens in the merchant's frame
// when the workspace lists origins that may frame its pages (signed into the address too).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { message, type MessageCode } from '../domain/messages.ts';
import { displayMoney } from '../domain/money.ts';
import { escape, pageLanguage, renderAutoPost, renderNotice, renderPage } from '../checkout/html.ts';
import { readForm } from '../checkout/forms.ts';
import type { ConnectorDeps, ProviderPage } from './registry.ts';

/**
 * The simulator's bank, by one name wherever it appears (the BIN lookup's issuer, this page): a
 * proper name, so it is not translated.
 */
export const SIMULATOR_BANK = 'Simülasyon Bank';

const KEY_PURPOSE = 'simulator-acs';
const ACS_PATH = /^\/simulator\/acs\/([A-Za-z0-9_-]+)\.([a-f0-9]{64})$/;

/** What the ACS page needs: the payment's simulator reference, where to answer, what to show. */
const state = z.object({
  reference: z.string(),
  callbackUrl: z.url(),
  /** Origins that may frame the page (the workspace's embedded checkout); absent: none. */
  frame: z.array(z.string()).optional(),
  amount: z.string().regex(/^\d+$/),
  currency: z.string(),
  card: z.string(),
});
export type AcsState = z.infer<typeof state>;

const sign = (deps: ConnectorDeps, text: string): string => createHmac('sha256', deps.key(KEY_PURPOSE)).update(text).digest('hex');

function sameSignature(deps: ConnectorDeps, text: string, given: string): boolean {
  const expected = Buffer.from(sign(deps, text));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The ACS address for a 3D start: its state, signed so nobody can make the page show another. */
export function acsAddress(deps: ConnectorDeps, s: AcsState): string {
  const payload = Buffer.from(JSON.stringify(s)).toString('base64url');
  return `${deps.baseUrl()}/simulator/acs/${payload}.${sign(deps, payload)}`;
}

function readAddress(deps: ConnectorDeps, match: RegExpExecArray): AcsState | null {
  const [, payload, signature] = match;
  if (!payload || !signature || !sameSignature(deps, payload, signature)) return null;
  try {
    const parsed = state.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const answerText = (reference: string, outcome: string) => `${reference}:${outcome}`;

/** The form the ACS posts to the payment's callback: the cardholder's button, signed. */
export function acsAnswerFields(deps: ConnectorDeps, reference: string, outcome: 'approve' | 'decline'): Record<string, string> {
  return { reference, outcome, signature: sign(deps, answerText(reference, outcome)) };
}

/** The answer the ACS posts to the callback: null when its signature is not this gateway's. */
export function readAcsAnswer(deps: ConnectorDeps, fields: Record<string, string>): { reference: string; outcome: 'approve' | 'decline' } | null {
  const { reference, outcome, signature } = fields;
  if (!reference || (outcome !== 'approve' && outcome !== 'decline') || !signature) return null;
  return sameSignature(deps, answerText(reference, outcome), signature) ? { reference, outcome } : null;
}

function notFound(req: IncomingMessage, res: ServerResponse): void {
  const lang = pageLanguage(req);
  renderNotice(res, lang, 404, message('page_not_found', lang), message('page_3ds_invalid', lang));
}

async function showAcs(deps: ConnectorDeps, req: IncomingMessage, res: ServerResponse, match: RegExpExecArray): Promise<void> {
  const s = readAddress(deps, match);
  if (!s) return notFound(req, res);
  const lang = pageLanguage(req);
  const t = (code: MessageCode) => escape(message(code, lang));
  renderPage(res, {
    lang,
    frameAncestors: s.frame,
    title: message('page_3ds_title', lang),
    body: `<div class="card"><h1>${t('page_3ds_title')}</h1>
      <p class="muted">${escape(SIMULATOR_BANK)}</p>
      <p>${t('page_3ds_amount')} <strong>${escape(displayMoney(BigInt(s.amount), s.currency, lang))}</strong></p>
      <p>${t('page_3ds_card')} <strong>${escape(s.card)}</strong></p>
      <form method="post">
        <button class="primary" type="submit" name="outcome" value="approve">${t('page_3ds_approve')}</button>
        <button class="secondary" type="submit" name="outcome" value="decline">${t('page_3ds_decline')}</button>
      </form></div>`,
  });
}

/** The cardholder's button: posted on to the payment's callback, signed. */
async function answerAcs(deps: ConnectorDeps, req: IncomingMessage, res: ServerResponse, match: RegExpExecArray): Promise<void> {
  const s = readAddress(deps, match);
  if (!s) return notFound(req, res);
  const outcome = (await readForm(req)).get('outcome') === 'approve' ? 'approve' : 'decline';
  renderAutoPost(res, pageLanguage(req), {
    id: 'acs-answer',
    action: s.callbackUrl,
    fields: acsAnswerFields(deps, s.reference, outcome),
    heading: message('page_3ds_title', pageLanguage(req)),
  }, { frameAncestors: s.frame });
}

export function simulatorPages(deps: ConnectorDeps): ProviderPage[] {
  return [{ pattern: ACS_PATH, get: (req, res, m) => showAcs(deps, req, res, m), post: (req, res, m) => answerAcs(deps, req, res, m) }];
}
