// iyzico's official Node client, loaded only by tests as the reference our wire layer must match.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface IyzipayUtils {
  generateAuthorizationHeaderV2(scheme: string, apiKey: string, separator: string, secretKey: string, uri: string, body: unknown, randomKey: string): string;
  formatPrice(price: string): string;
}

export const iyzipayUtils = require('iyzipay/lib/utils.js') as IyzipayUtils;

/** The header iyzipay's request layer (IyzipayResource._getHttpHeaders) builds for this call. */
export function iyzipayAuthorization(apiKey: string, secretKey: string, uriPath: string, body: unknown, randomKey: string): string {
  return iyzipayUtils.generateAuthorizationHeaderV2('IYZWSv2', apiKey, ':', secretKey, uriPath, body, randomKey);
}

type RequestModel = new (request: Record<string, unknown>) => { toJson(): Record<string, unknown> };

/** The body iyzipay would send for a request model (lib/requests/<name>.js), undefined fields dropped as JSON drops them. */
export function iyzipayBody(model: string, request: object): Record<string, unknown> {
  const Model = require(`iyzipay/lib/requests/${model}.js`) as RequestModel;
  return JSON.parse(JSON.stringify(new Model(request as Record<string, unknown>).toJson())) as Record<string, unknown>;
}

/** iyzipay's check of a response signature (its samples join the parsed answer fields with ':'). */
export function iyzipaySignature(params: unknown[], secretKey: string): string {
  const utils = require('iyzipay/lib/utils.js') as { calculateHmacSHA256Signature(params: unknown[], secretKey: string): string };
  return utils.calculateHmacSHA256Signature(params, secretKey);
}
