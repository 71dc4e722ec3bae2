// The route table: each REST operation of the contract runs one internal GraphQL document.
// `signing: 'timestamp'` operations must carry X-Timestamp (contract: payment link operations);
// every other operation takes the body form, or the timestamp form when X-Timestamp is sent.
// Every operation answers 422 for a key it does not know (unknown-keys.ts); a workspace may choose
// to have them ignored instead, except on `strict` operations, whose contract asks for the 422
// (save-product, the payment-link writes). `document: null` answers 501 until its issue lands.
export interface Route {
  operation: string;
  document: string | null;
  /** The root field whose payload is the response body. */
  field?: string;
  signing: 'body' | 'timestamp';
  strict?: boolean;
  /** `[field, flag]`: the response keeps `field` only when the selected `flag` is true; the flag never shows. */
  presentOnlyWhen?: Array<[string, string]>;
  /** Dotted fields of the payload (GraphQL names) left out of the response when null. */
  omitWhenNull?: string[];
  /**
   * A field of the answer beyond the contract's, sent only to a caller whose `X-Include` header
   * names it (snake_case), so that a caller that does not gets the contract's answer byte for byte.
   */
  askedExtra?: string;
  /** Honours the Idempotency-Key header (the money-moving card payment operations). */
  idempotent?: boolean;
}

const ERRORS = 'errors { kind code message path }';
const RESULT = 'result { successful message }';
/** A payment's outcome; `error_code` shows only on a failure with a reason, so successful answers keep the contract's bytes. */
const PAYMENT_RESULT = 'result { successful message errorCode }';

const PAYMENT = `transaction { token channelToken channelReference }
        customer { channelReference }
        conversion { amount currency rate }
        savedCardRequested
        savedCard { token paymentProviderToken holderName scheme firstDigits lastFourDigit expiryMonth expiryYear isDefault createdAt }`;

const PRODUCT = 'channelToken channelReference name type amount currency taxRate period isActive';

const PAYMENT_LINK = `token reference description paymentProviderToken amountType itemName predefinedAmounts taxRate taxMode
        items { reference name image quantity unitAmount taxRate }
        subtotal taxAmount amount currency currencyType currencies emailsCustomer isActive isTest expiresAt checkoutUrl createdAt`;

const LINK_TRANSACTION = `token reference status paymentStatus securityType amount baseAmount currency installmentNumber isTest errorCode errorMessage createdAt
        customer { reference billingAddress { firstname lastname email } }
        conversion { amount currency rate }
        order { token } subscription { token } paymentLink { token } linkPayment { token }`;

const linkRoute = (operation: string, field: string, inputType: string, strict: boolean): Route => ({
  operation,
  field,
  signing: 'timestamp',
  strict,
  document: `mutation Op($input: ${inputType}!) { ${field}(input: $input) { ${RESULT} paymentLink { ${PAYMENT_LINK} } ${ERRORS} } }`,
});

/** contract: Subscription object, fields in the contract's order. */
const SUBSCRIPTION = `subscription {
          token channelToken channelReference status period
          items { channelReference name quantity unitAmount taxRate }
          amount currency isTest startsAt endsAt paidAt cancelledAt checkoutUrl
        }`;

const subscriptionRoute = (operation: string, field: string, kind: 'query' | 'mutation', inputType: string, extra = ''): Route => ({
  operation,
  field,
  signing: 'body',
  document: `${kind} Op($input: ${inputType}!) {
      ${field}(input: $input) {
        ${RESULT}
        ${SUBSCRIPTION}
        ${extra}
        ${ERRORS}
      }
    }`,
});

const paymentRoute = (operation: string, field: string, kind: 'query' | 'mutation', inputType: string, result: string, extra = ''): Route => ({
  operation,
  field,
  signing: 'body',
  idempotent: true,
  // contract: saved_card is present only when the payment was started with card.should_save
  presentOnlyWhen: [['savedCard', 'savedCardRequested']],
  omitWhenNull: ['result.errorCode'],
  document: `${kind} Op($input: ${inputType}!) {
      ${field}(input: $input) {
        ${result}
        ${PAYMENT}
        ${extra}
        ${ERRORS}
      }
    }`,
});

const implemented: Route[] = [
  {
    operation: 'save-card',
    field: 'saveCard',
    signing: 'body',
    // The provider's refusal code, as on a failed payment; absent when the card was stored.
    omitWhenNull: ['result.errorCode'],
    document: `mutation Op($input: SaveCardInput!) { saveCard(input: $input) { ${PAYMENT_RESULT} savedCard { token paymentProviderToken holderName scheme firstDigits lastFourDigit expiryMonth expiryYear isDefault createdAt } customer { channelReference } ${ERRORS} } }`,
  },
  {
    operation: 'saved-cards',
    field: 'savedCards',
    signing: 'body',
    document: `query Op($input: SavedCardsInput!) { savedCards(input: $input) { ${RESULT} savedCards { token paymentProviderToken holderName scheme firstDigits lastFourDigit expiryMonth expiryYear isDefault createdAt } customer { channelReference } ${ERRORS} } }`,
  },
  {
    operation: 'default-saved-card',
    field: 'defaultSavedCard',
    signing: 'body',
    document: `mutation Op($input: SavedCardRefInput!) { defaultSavedCard(input: $input) { ${RESULT} savedCard { token paymentProviderToken holderName scheme firstDigits lastFourDigit expiryMonth expiryYear isDefault createdAt } customer { channelReference } ${ERRORS} } }`,
  },
  {
    operation: 'delete-saved-card',
    field: 'deleteSavedCard',
    signing: 'body',
    omitWhenNull: ['result.errorCode'],
    document: `mutation Op($input: SavedCardRefInput!) { deleteSavedCard(input: $input) { ${PAYMENT_RESULT} savedCard { token } customer { channelReference } ${ERRORS} } }`,
  },
  paymentRoute('secure-payment', 'securePayment', 'mutation', 'PaymentInput', 'result { successful message errorCode redirectUrl }'),
  paymentRoute('regular-payment', 'regularPayment', 'mutation', 'PaymentInput', PAYMENT_RESULT),
  // Beyond the contract's fields, whose answer shows no refund or cancel: the payment's state and
  // refunds, last, in `payment`, for a caller that asks for them (`X-Include: payment`).
  {
    ...paymentRoute('retrieve-payment', 'retrievePayment', 'query', 'RetrievePaymentInput', PAYMENT_RESULT, 'payment { status paymentStatus amount currency refundedAmount refundableAmount refunds { type status amount createdAt } }'),
    askedExtra: 'payment',
  },
  paymentRoute('refund-payment', 'refundPayment', 'mutation', 'RefundPaymentInput', PAYMENT_RESULT, 'refund { type amount }'),
  {
    operation: 'retrieve-payments',
    field: 'retrievePayments',
    signing: 'body',
    presentOnlyWhen: [['createdFrom', 'byDates'], ['createdTo', 'byDates']],
    document: `query Op($input: RetrievePaymentsInput!) {
      retrievePayments(input: $input) {
        ${RESULT}
        byDates createdFrom createdTo
        payments {
          token channelToken channelReference status paymentStatus securityType amount baseAmount refundedAmount currency
          installmentNumber isTest errorCode errorMessage cardFirstDigits cardLastFourDigits cardScheme
          customer { channelReference } conversion { amount currency rate }
          refunds { type status amount createdAt } createdAt completedAt
        }
        ${ERRORS}
      }
    }`,
  },
  paymentRoute('cancel-payment', 'cancelPayment', 'mutation', 'CancelPaymentInput', PAYMENT_RESULT, 'refund { type amount }'),
  {
    operation: 'retrieve-bin',
    field: 'retrieveBin',
    signing: 'body',
    document: `query RetrieveBin($input: RetrieveBinInput!) {
      retrieveBin(input: $input) {
        ${RESULT}
        card { bin issuerName issuerCode scheme type program isCommercial }
        installments { number amount total }
        ${ERRORS}
      }
    }`,
  },
  {
    operation: 'save-product',
    field: 'saveProduct',
    signing: 'body',
    // contract: any other key inside `product` is a 422
    strict: true,
    document: `mutation Op($input: SaveProductInput!) {
      saveProduct(input: $input) {
        ${RESULT}
        product { ${PRODUCT} }
        ${ERRORS}
      }
    }`,
  },
  {
    operation: 'order-payment',
    field: 'orderPayment',
    signing: 'body',
    document: `mutation Op($input: OrderPaymentInput!) {
      orderPayment(input: $input) {
        ${RESULT}
        order { token channelToken channelReference amount currency status checkoutUrl }
        customer { channelReference }
        ${ERRORS}
      }
    }`,
  },
  {
    operation: 'retrieve-orders',
    field: 'retrieveOrders',
    signing: 'body',
    presentOnlyWhen: [['createdFrom', 'byDates'], ['createdTo', 'byDates']],
    document: `query Op($input: RetrieveOrdersInput!) {
      retrieveOrders(input: $input) {
        ${RESULT}
        byDates createdFrom createdTo
        orders {
          token channelToken channelReference status amount subtotal taxAmount currency description
          successUrl cancelUrl paymentProviderToken checkoutUrl
          customer { channelReference }
          items { channelReference name quantity unitAmount taxRate }
          transaction {
            token status paymentStatus securityType amount baseAmount refundedAmount currency installmentNumber isTest
            errorCode errorMessage conversion { amount currency rate } createdAt completedAt
          }
          paidAt createdAt
        }
        ${ERRORS}
      }
    }`,
  },
  linkRoute('create-payment-link', 'createPaymentLink', 'CreatePaymentLinkInput', true),
  linkRoute('update-payment-link', 'updatePaymentLink', 'UpdatePaymentLinkInput', true),
  {
    operation: 'retrieve-payment-links',
    field: 'retrievePaymentLinks',
    signing: 'timestamp',
    presentOnlyWhen: [['createdFrom', 'byDates'], ['createdTo', 'byDates']],
    document: `query Op($input: RetrievePaymentLinksInput!) {
      retrievePaymentLinks(input: $input) {
        ${RESULT}
        byDates createdFrom createdTo
        paymentLinks { ${PAYMENT_LINK} transactionsCount transactions { ${LINK_TRANSACTION} } }
        ${ERRORS}
      }
    }`,
  },
  {
    operation: 'retrieve-link-payments',
    field: 'retrieveLinkPayments',
    signing: 'timestamp',
    document: `query Op($input: RetrieveLinkPaymentsInput!) {
      retrieveLinkPayments(input: $input) {
        ${RESULT}
        linkPayments {
          token reference paymentLink { token } status paymentStatus
          items { name quantity unitAmount taxRate }
          subtotal taxAmount amount currency
          customer { reference billingAddress { firstname lastname email } }
          transaction { token } paidAt createdAt
        }
        ${ERRORS}
      }
    }`,
  },
  subscriptionRoute('subscription-payment', 'subscriptionPayment', 'mutation', 'SubscriptionPaymentInput', 'customer { channelReference }'),
  subscriptionRoute('retrieve-subscription', 'retrieveSubscription', 'query', 'SubscriptionRefInput'),
  subscriptionRoute('cancel-subscription', 'cancelSubscription', 'mutation', 'SubscriptionRefInput'),
  {
    operation: 'retrieve-subscriptions',
    field: 'retrieveSubscriptions',
    signing: 'body',
    presentOnlyWhen: [['createdFrom', 'byDates'], ['createdTo', 'byDates']],
    document: `query Op($input: RetrieveSubscriptionsInput!) {
      retrieveSubscriptions(input: $input) {
        ${RESULT}
        byDates createdFrom createdTo
        subscriptions {
          token channelToken channelReference status period
          items { channelReference name quantity unitAmount taxRate }
          amount currency isTest startsAt endsAt paidAt cancelledAt checkoutUrl
          customer { channelReference }
          renewalLimit successUrl cancelUrl webhookUrl paymentProviderToken endedAt createdAt
        }
        ${ERRORS}
      }
    }`,
  },
];

/** Operations of the contract not built yet (501); empty once every one is. */
const pending: Array<[string, Route['signing'], boolean?]> = [];

export const routes: ReadonlyMap<string, Route> = new Map(
  [...implemented, ...pending.map(([operation, signing, strict]) => ({ operation, signing, strict, document: null }))].map((r) => [
    r.operation,
    r,
  ]),
);

/** `update-payment-link/{token}` carries the link token in the path. */
export function findRoute(operationPath: string): { route: Route; pathToken: string | null } | null {
  const [operation, token, ...rest] = operationPath.split('/');
  const route = routes.get(operation ?? '');
  if (!route || rest.length > 0) return null;
  if (token !== undefined && operation !== 'update-payment-link') return null;
  return { route, pathToken: token ?? null };
}
