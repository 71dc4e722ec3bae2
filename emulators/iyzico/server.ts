import { listenOn } from '../listen.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { verifyRequest, type Credentials } from './auth.ts';
import { obj, str, type ApiContext, type ApiHandler } from './api.ts';
import { Behaviour, type Latency } from './behaviour.ts';
import { createCard, deleteCard, listCards } from './cardstorage.ts';
import { ERRORS, failureBody, IyziFailure } from './errors.ts';
import { binCheck, installmentInfo } from './info.ts';
import { createPayment, retrievePayment } from './payments.ts';
import { cancel, refund, refundV2 } from './refunds.ts';
import { paymentDetails } from './reporting.ts';
import { EmulatorState } from './state.ts';
import { authThreeds, completeAcs, initializeThreeds, renderAcs } from './threeds.ts';
import { WebhookSender, type WebhookDelivery } from './webhooks.ts';

/** The iyzico API paths iyzipay calls, with the method it uses. `payment` marks calls that charge a card. */
const ROUTES: Record<string, { handler: ApiHandler; payment?: boolean }> = {
  'POST /payment/auth': { handler: createPayment, payment: true },
  'POST /payment/detail': { handler: retrievePayment },
  'POST /payment/3dsecure/initialize': { handler: initializeThreeds, payment: true },
  'POST /payment/3dsecure/auth': { handler: authThreeds, payment: true },
  'POST /payment/refund': { handler: refund },
  'POST /v2/payment/refund': { handler: refundV2 },
  'POST /payment/cancel': { handler: cancel },
  'GET /v2/reporting/payment/details': { handler: paymentDetails },
  'POST /payment/bin/check': { handler: binCheck },
  'POST /payment/iyzipos/installment': { handler: installmentInfo },
  'POST /cardstorage/card': { handler: createCard },
  'DELETE /cardstorage/card': { handler: deleteCard },
  'POST /cardstorage/cards': { handler: listCards },
  'GET /payment/test': { handler: () => ({}) },
};

export interface IyzicoEmulatorOptions extends Partial<Credentials> {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Merchant notification URL: when set, each payment attempt is notified there (X-IYZ-SIGNATURE-V3). */
  webhookUrl?: string;
  webhookDelayMs?: number;
  webhookRetryMs?: number;
  merchantId?: string;
  /** Every API answer waits a uniformly random [minMs, maxMs] first, as a real bank takes its time. */
  latency?: Latency;
}

export interface IyzicoEmulator extends Credentials {
  url: string;
  state: EmulatorState;
  behaviour: Behaviour;
  /** Notifications sent so far (empty without webhookUrl). */
  webhooks: WebhookDelivery[];
  close(): Promise<void>;
}

export const DEFAULT_CREDENTIALS: Credentials = { apiKey: 'sandbox-emulator-api-key', secretKey: 'sandbox-emulator-secret-key' };
const MAX_BODY = 1_000_000;

/** Starts the emulator on host:port and resolves once it listens. */
export async function startIyzicoEmulator(options: IyzicoEmulatorOptions = {}): Promise<IyzicoEmulator> {
  const creds: Credentials = { apiKey: options.apiKey ?? DEFAULT_CREDENTIALS.apiKey, secretKey: options.secretKey ?? DEFAULT_CREDENTIALS.secretKey };
  const state = new EmulatorState();
  const behaviour = new Behaviour(options.latency);
  const webhooks = options.webhookUrl
    ? new WebhookSender({
        url: options.webhookUrl,
        secretKey: creds.secretKey,
        merchantId: options.merchantId ?? '100001',
        delayMs: options.webhookDelayMs ?? 0,
        retryMs: options.webhookRetryMs ?? 1_000,
      })
    : undefined;
  if (webhooks) state.paymentListeners.push((payment) => webhooks.paymentResult(payment));
  let baseUrl = '';
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof IyziFailure) return send(res, error.error.httpStatus, failureBody(error.error, 'tr'));
      console.error('iyzico emulator: unexpected error', error);
      if (!res.headersSent) send(res, 500, failureBody(ERRORS.systemError, 'tr'));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', baseUrl);
    const raw = await readBody(req);
    if (url.pathname.startsWith('/_emulator/')) return handleEmulator(req.method ?? 'GET', url, raw, res);
    await behaviour.wait();

    const route = ROUTES[`${req.method} ${url.pathname}`];
    const body = parseJson(raw);
    // A GET call (reporting) carries its fields in the query string.
    const fields = req.method === 'GET' ? url.searchParams : null;
    const locale = (fields ? str(fields.get('locale')) : str(body?.locale)) ?? 'tr';
    const conversationId = fields ? str(fields.get('conversationId')) : str(body?.conversationId);
    if (!route) return send(res, 404, failureBody({ errorCode: '11', errorMessage: `Geçersiz istek: ${req.method} ${url.pathname}` }, locale));
    const auth = verifyRequest(creds, header(req, 'authorization'), url.pathname, raw);
    // iyzico answers a bad signature on /payment/* with HTTP 200 and status "failure" (errorCode 1000),
    // so a client that trusts the HTTP status alone takes it for success; the emulator does the same.
    if (!auth.ok) return send(res, 200, failureBody(auth, locale, conversationId));
    if (body === null) return send(res, 400, failureBody(ERRORS.invalidRequest, locale, conversationId));

    const rule = behaviour.take(route.payment === true);
    if (rule?.mode === 'timeout') return; // never answer; close() destroys the socket
    if (rule?.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, rule.delayMs));
    if (rule?.mode === 'fail') return send(res, 500, failureBody(ERRORS.systemError, locale, conversationId));

    const ctx: ApiContext = { body, query: url.searchParams, state, secretKey: creds.secretKey, baseUrl, forceDecline: rule?.mode === 'decline' };
    try {
      const answer = route.handler(ctx);
      send(res, 200, { status: 'success', locale, systemTime: Date.now(), conversationId, ...answer });
    } catch (error) {
      if (!(error instanceof IyziFailure)) throw error;
      send(res, error.error.httpStatus, failureBody(error.error, locale, conversationId));
    }
  }

  function handleEmulator(method: string, url: URL, raw: string, res: ServerResponse): void {
    const acs = /^\/_emulator\/acs\/(\d+)(\/complete)?$/.exec(url.pathname);
    if (acs) {
      const form = new URLSearchParams(method === 'POST' ? raw : url.search);
      const token = form.get('token') ?? undefined;
      const html = acs[2]
        ? method === 'POST' ? completeAcs(state, creds.secretKey, acs[1], token, form.get('decision') ?? undefined) : null
        : renderAcs(state, acs[1], token);
      if (html === null) return sendHtml(res, 404, '<!doctype html><p>Unknown or already answered 3-D Secure challenge.</p>');
      return sendHtml(res, 200, html);
    }
    const key = `${method} ${url.pathname}`;
    if (key === 'GET /_emulator/state') return send(res, 200, { ...state.snapshot(), behaviour: behaviour.list(), webhooks: webhooks?.deliveries ?? [] });
    if (key === 'POST /_emulator/reset') {
      state.reset();
      behaviour.clear();
      return send(res, 200, { ok: true });
    }
    if (key === 'POST /_emulator/behaviour') {
      const input = obj(parseJson(raw)) ?? {};
      try {
        return send(res, 200, { rule: behaviour.set(input) });
      } catch (error) {
        return send(res, 400, { error: (error as Error).message });
      }
    }
    if (key === 'DELETE /_emulator/behaviour') {
      behaviour.clear();
      return send(res, 200, { ok: true });
    }
    send(res, 404, { error: `no emulator route ${key}` });
  }

  const listening = await listenOn(server, options);
  baseUrl = listening.url;

  return {
    ...creds,
    url: baseUrl,
    state,
    behaviour,
    webhooks: webhooks?.deliveries ?? [],
    close: () => {
      webhooks?.stop();
      return listening.close();
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new IyziFailure(ERRORS.invalidRequest);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An empty body counts as {} (iyzipay sends {} on bodiless calls); anything but a JSON object is null. */
function parseJson(raw: string): Record<string, unknown> | null {
  if (raw.trim() === '') return {};
  try {
    return obj(JSON.parse(raw)) ?? null;
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}
