// What the CLI's help, the GraphQL schema and the README say about routing matches what routing
// does: every matching rule's account is a candidate, the cheapest first, and the README's card
// program example names a program the simulator's cards have.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.ts';
import { schema } from '../../src/graphql/schema.ts';
import { SimulatorBank } from '../../src/providers/simulator.ts';

const deps = { now: () => new Date('2026-03-15T12:00:00Z'), baseUrl: () => 'http://127.0.0.1:1', key: () => Buffer.alloc(32, 7), log: () => undefined };

describe('the words about routing', () => {
  it('the CLI help and the RoutingRule description say the cheapest matching account, not the first match', async () => {
    let help = '';
    const code = await runCli(['routing', '--help'], { stdout: { write: (text: string) => (help += text) }, stderr: { write: () => true }, env: {} });
    expect(code).toBe(0);
    const description = schema.getType('RoutingRule')?.description ?? '';
    for (const words of [help, description]) {
      expect(words).toContain('the cheapest first');
      expect(words).not.toMatch(/first match/i);
    }
  });

  it("the README's routing example names the program of the simulator's Visa credit cards", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const programs = [...readme.matchAll(/routing add .*--program "([^"]+)"/g)].map((m) => m[1]);
    expect(programs.length).toBeGreaterThan(0);
    const card = await new SimulatorBank(deps).binLookup('41111111');
    for (const program of programs) expect(program).toBe(card?.program);
  });
});
