// The currencies the gateway takes, as a schema enum the dashboard's selects are generated from.
// No field uses it: currency fields and arguments stay String, so an unknown code still answers the
// domain's field error (and the REST contract is unchanged) rather than a GraphQL parse error.
import { builder } from '../builder.ts';
import { CURRENCIES } from '../../domain/money.ts';

builder.enumType('Currency', { description: 'A currency the gateway takes (ISO 4217); currency fields are String and accept these', values: CURRENCIES });
