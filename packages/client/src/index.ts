// @payment-gateway/client: a typed merchant client for the payment gateway's REST API.
export { createGatewayClient, newIdempotencyKey } from './client.js';
export type { CallOptions, GatewayClient, GatewayClientOptions, OperationId, OperationMethods, OperationOptions, RequestBody, ResponseBody } from './client.js';
export {
  AuthenticationError,
  ConflictError,
  GatewayError,
  NotImplementedError,
  PermissionError,
  RateLimitError,
  ResponseSignatureError,
  UnavailableError,
  UnexpectedResponseError,
  ValidationError,
} from './errors.js';
export type { ErrorBody, GatewayErrorKind } from './errors.js';
export { isTimestampFresh, safeEqualHex, signBody, signTimestamped, TIMESTAMP_TOLERANCE_SECONDS, verifyTimestamped } from './signatures.js';
export type { RawBody, SigningForm, VerifyTimestampedInput } from './signatures.js';
export { parseWebhook, verifyWebhook, WebhookVerificationError, webhookEvents } from './webhooks.js';
export type { VerifyWebhookInput, WebhookEvent, WebhookNotification } from './webhooks.js';
export type { components, operations, paths } from './generated/openapi.js';
