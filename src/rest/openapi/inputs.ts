// Each REST operation's request body is the domain's own zod input schema (the rules it
// validates with); the OpenAPI document is printed from these, so it cannot drift from them.
import type { z } from 'zod';
import { cardRefInput, listInput as savedCardsInput, saveCardInput } from '../../domain/saved-cards.ts';
import { regularInput, secureInput } from '../../domain/payments/input.ts';
import { tokenInput as paymentTokenInput } from '../../domain/payments/retrieve.ts';
import { cancelInput, refundInput } from '../../domain/payments/refunds.ts';
import { listInput as paymentsInput } from '../../domain/payments/list.ts';
import { retrieveBinInput } from '../../domain/bin.ts';
import { saveProductInput } from '../../domain/products.ts';
import { orderPaymentInput } from '../../domain/orders/create.ts';
import { listInput as ordersInput } from '../../domain/orders/list.ts';
import { createInput as createLinkInput, updateInput as updateLinkInput } from '../../domain/payment-links/input.ts';
import { linkPaymentsInput, listInput as linksInput } from '../../domain/payment-links/list.ts';
import { subscriptionPaymentInput } from '../../domain/subscriptions/create.ts';
import { tokenInput as subscriptionTokenInput } from '../../domain/subscriptions/retrieve.ts';
import { listInput as subscriptionsInput } from '../../domain/subscriptions/list.ts';

/** Operation -> domain input schema (camelCase; the document prints it in the wire's snake_case). */
export const inputSchemas: Record<string, z.ZodType> = {
  'save-card': saveCardInput,
  'saved-cards': savedCardsInput,
  'default-saved-card': cardRefInput,
  'delete-saved-card': cardRefInput,
  'secure-payment': secureInput,
  'regular-payment': regularInput,
  'retrieve-payment': paymentTokenInput,
  'refund-payment': refundInput,
  'retrieve-payments': paymentsInput,
  'cancel-payment': cancelInput,
  'retrieve-bin': retrieveBinInput,
  'save-product': saveProductInput,
  'order-payment': orderPaymentInput,
  'retrieve-orders': ordersInput,
  'create-payment-link': createLinkInput,
  // The link token travels in the path (update-payment-link/{token}), not in the body.
  'update-payment-link': updateLinkInput.omit({ token: true }),
  'retrieve-payment-links': linksInput,
  'retrieve-link-payments': linkPaymentsInput,
  'subscription-payment': subscriptionPaymentInput,
  'retrieve-subscription': subscriptionTokenInput,
  'cancel-subscription': subscriptionTokenInput,
  'retrieve-subscriptions': subscriptionsInput,
};
