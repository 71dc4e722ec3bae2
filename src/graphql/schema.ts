// Imports every type module (each registers itself on the builder) and builds the schema once.
import { builder } from './builder.ts';
import './scalars.ts';
import './types/result.ts';
import './types/workspace.ts';
import './types/bin.ts';
import './types/payments.ts';
import './types/payment-records.ts';
import './types/webhooks.ts';
import './types/settings.ts';
import './types/routing.ts';
import './types/providers.ts';
import './types/access-tokens.ts';
import './types/audit.ts';
import './types/live-updates.ts';
import './types/products.ts';
import './types/orders.ts';
import './types/saved-cards.ts';
import './types/payment-links.ts';
import './types/subscription-records.ts';
import './types/routing-resilience.ts';
import './types/timeline.ts';
import './types/risk.ts';
import './types/customers.ts';
import './types/search.ts';
import './types/overview.ts';
import './types/currency.ts';

export const schema = builder.toSchema({ sortSchema: true });
