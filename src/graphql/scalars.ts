import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.ts';

import { isoMicro } from '../domain/clock.ts';

builder.scalarType('DateTime', {
  description: 'ISO 8601 UTC timestamp with microseconds',
  serialize: (value) => isoMicro(value instanceof Date ? value : new Date(String(value))),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError('Invalid DateTime');
    return date;
  },
});

// Passed through untouched so the domain reports a bad amount with its field path and message.
builder.scalarType('AmountInput', {
  description: 'Amount in major units as a string like "100" or "100.10" (a JSON number is accepted too)',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value === 'string' || typeof value === 'number') return value;
    throw new GraphQLError('AmountInput must be a string or a number');
  },
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING) return ast.value;
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return ast.value;
    throw new GraphQLError('AmountInput must be a string or a number');
  },
});

builder.scalarType('JSON', {
  serialize: (value) => value,
  parseValue: (value) => value,
});
