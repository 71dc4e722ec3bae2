// The Dockerfile reader behind test/image.test.ts: what it copies and what it refuses to guess.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dockerignore, parseDockerfile } from '../scripts/image-check.ts';
import { ROOT } from './helpers/gateway-process.ts';

describe('dockerignore', () => {
  const ignored = dockerignore(readFileSync(path.join(ROOT, '.dockerignore'), 'utf8'));

  it.each([
    ['node_modules/vite/package.json', true],
    ['packages/client/node_modules/x/index.js', true],
    ['dist/main.js', true],
    ['dashboard/dist/index.html', true],
    ['src/generated/prisma/client.ts', true],
    ['dashboard/src/App.tsx', false],
    ['src/dashboard/static.ts', false],
    ['prisma/migrations/0001_init/migration.sql', false],
  ])('%s left out: %s', (file, expected) => {
    expect(ignored(file)).toBe(expected);
  });

  it('refuses exceptions rather than ignoring them', () => {
    expect(() => dockerignore('dist\n!dist/keep')).toThrow(/not supported/);
  });
});

describe('parseDockerfile', () => {
  it("reads this repository's Dockerfile: a build stage and the image", () => {
    const stages = parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
    expect(stages.map((s) => [s.from, s.name])).toEqual([
      ['node:24-bookworm-slim', 'build'],
      ['node:24-bookworm-slim', null],
    ]);
    expect(stages[1]!.steps).toContainEqual({ op: 'COPY', from: 'build', sources: ['/app/dashboard/dist'], dest: './dashboard/dist' });
    // Every RUN is one of the scripts the check runs too.
    const runs = stages.flatMap((s) => s.steps.filter((step) => step.op === 'RUN').map((step) => step.command));
    expect(runs.every((command) => /^sh scripts\/image\/\w+\.sh\b/.test(command)), runs.join('\n')).toBe(true);
  });

  it('joins continued lines and skips comments', () => {
    const [stage] = parseDockerfile('# c\nFROM node:24 AS b\nRUN echo a \\\n  && echo b\nENV A=1 B=two\n');
    expect(stage!.steps).toEqual([
      { op: 'RUN', command: 'echo a && echo b' },
      { op: 'ENV', vars: { A: '1', B: 'two' } },
    ]);
  });

  it.each([['ARG V=1'], ['ADD x /x'], ['COPY --chmod=755 a b'], ['COPY src/* ./'], ['ENV A="b c"'], ['RUN ["sh", "-c", "x"]'], ['WORKDIR app']])(
    'refuses what it does not replay: %s',
    (line) => {
      expect(() => parseDockerfile(`FROM node:24\n${line}\n`)).toThrow();
    },
  );
});
