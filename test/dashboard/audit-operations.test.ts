// Every mutation the gateway audits has words in both languages on the audit trail.
import { describe, expect, it } from 'vitest';
import { MUTATION_ROLES } from '../../src/graphql/roles.ts';
import { OPERATION_NAMES, operationLabel } from '../../dashboard/src/team/operations.ts';
import { CLI_OPERATIONS } from '../../src/cli/audit.ts';

describe('audit operation labels', () => {
  it('name every mutation of the role table, in Turkish and English', () => {
    expect(OPERATION_NAMES.slice().sort()).toEqual(Object.keys(MUTATION_ROLES).sort());
    for (const name of OPERATION_NAMES) {
      expect(operationLabel(name, 'tr'), name).not.toBe(name);
      expect(operationLabel(name, 'en'), name).not.toBe(name);
    }
  });

  it('name every change the CLI records, whether or not GraphQL makes it too', () => {
    for (const name of Object.values(CLI_OPERATIONS)) {
      expect(operationLabel(name, 'tr'), name).not.toBe(name);
      expect(operationLabel(name, 'en'), name).not.toBe(name);
    }
  });

  it('show an operation without words (a support read) as its name', () => {
    expect(operationLabel('payments', 'en')).toBe('payments');
  });
});
