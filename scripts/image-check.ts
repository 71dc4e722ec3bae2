// Reproduces the Dockerfile's stages without Docker (none runs on the machines this project is
// built on): each stage's filesystem is a temporary folder, COPY copies from the build context
// (minus .dockerignore) or from an earlier stage, RUN runs its command in the stage's WORKDIR
// with the stage's ENV. The Dockerfile keeps its work in scripts/image/*.sh, so what runs here is
// what runs in the image. What differs: the base image (this machine's Debian and the Node 24
// binary from the `node` package instead of node:24-bookworm-slim; the caller checks the major
// version), USER (commands run as the current user), and npm's cache (the machine's, passed in).
// test/image.test.ts builds the image this way, starts it and checks what it serves.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export type Step =
  | { op: 'WORKDIR'; dir: string }
  | { op: 'ENV'; vars: Record<string, string> }
  | { op: 'COPY'; from: string | null; sources: string[]; dest: string }
  | { op: 'RUN'; command: string }
  | { op: 'USER'; user: string }
  | { op: 'EXPOSE' }
  | { op: 'CMD'; args: string[] };

export interface StagePlan {
  from: string;
  name: string | null;
  steps: Step[];
}

export interface BuiltStage {
  name: string | null;
  from: string;
  /** The folder standing for the stage's filesystem root. */
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string | null;
  cmd: string[] | null;
  /** Where a path of the image (absolute, or relative to WORKDIR) is on this machine. */
  hostPath(imagePath: string): string;
}

/** The Dockerfile's stages; anything beyond the small subset it uses is refused, not guessed. */
export function parseDockerfile(text: string): StagePlan[] {
  const stages: StagePlan[] = [];
  for (const line of logicalLines(text)) {
    const [, keyword, rest] = /^(\w+)\s+(.*)$/s.exec(line) ?? [];
    if (!keyword || rest === undefined) throw new Error(`Dockerfile: cannot read "${line}"`);
    const op = keyword.toUpperCase();
    if (op === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      if (!m) throw new Error(`Dockerfile: unsupported FROM "${rest}"`);
      stages.push({ from: m[1]!, name: m[2] ?? null, steps: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile: ${op} before FROM`);
    stage.steps.push(parseStep(op, rest));
  }
  return stages;
}

function parseStep(op: string, rest: string): Step {
  switch (op) {
    case 'WORKDIR':
      if (!rest.startsWith('/')) throw new Error(`Dockerfile: WORKDIR must be absolute here, not "${rest}"`);
      return { op, dir: rest };
    case 'ENV': {
      const vars: Record<string, string> = {};
      for (const pair of rest.split(/\s+/)) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=([^"'$\\]*)$/.exec(pair);
        if (!m) throw new Error(`Dockerfile: unsupported ENV "${pair}" (plain KEY=value only)`);
        vars[m[1]!] = m[2]!;
      }
      return { op, vars };
    }
    case 'COPY': {
      const words = rest.split(/\s+/);
      let from: string | null = null;
      while (words[0]?.startsWith('--')) {
        const flag = words.shift()!;
        if (!flag.startsWith('--from=')) throw new Error(`Dockerfile: unsupported COPY flag ${flag}`);
        from = flag.slice('--from='.length);
      }
      if (words.length < 2 || words.some((w) => /[*?[\]"]/.test(w))) throw new Error(`Dockerfile: unsupported COPY "${rest}"`);
      return { op, from, sources: words.slice(0, -1), dest: words.at(-1)! };
    }
    case 'RUN':
      if (rest.startsWith('[')) throw new Error('Dockerfile: RUN in exec form is not supported here');
      return { op, command: rest };
    case 'USER':
      return { op, user: rest };
    case 'EXPOSE':
      return { op };
    case 'CMD':
      return { op, args: JSON.parse(rest) as string[] };
    default:
      throw new Error(`Dockerfile: ${op} is not supported by scripts/image-check.ts`);
  }
}

/** Instructions with comments dropped and `\` continuations joined. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1).trimEnd() + ' ';
      continue;
    }
    lines.push((current + line).trim());
    current = '';
  }
  if (current.trim()) lines.push(current.trim());
  return lines;
}

/** A path (relative to the context, `/`-separated) is left out when a pattern matches it or a folder above it. */
export function dockerignore(text: string): (relative: string) => boolean {
  const patterns = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      if (l.startsWith('!')) throw new Error(`.dockerignore: exceptions (${l}) are not supported here`);
      const body = l.replace(/^\/+|\/+$/g, '');
      const source = body
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) => (part === '**/' || part === '**' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
        .join('');
      return new RegExp(`^${source}$`);
    });
  return (relative) => {
    const parts = relative.split('/');
    return parts.some((_, i) => patterns.some((p) => p.test(parts.slice(0, i + 1).join('/'))));
  };
}

export interface ReproduceOptions {
  /** The build context (the repository). */
  context: string;
  /** An empty folder; each stage gets a folder in it. */
  work: string;
  /** The environment every RUN gets besides the stage's ENV (PATH with Node 24 first, HOME, npm cache...). */
  env: Record<string, string>;
  log?: (line: string) => void;
}

/** Runs every stage of `<context>/Dockerfile`; the last one is the image. */
export async function reproduceImage(opts: ReproduceOptions): Promise<BuiltStage[]> {
  const plans = parseDockerfile(readFileSync(path.join(opts.context, 'Dockerfile'), 'utf8'));
  const ignoreFile = path.join(opts.context, '.dockerignore');
  const ignored = dockerignore(existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : '');
  const built: BuiltStage[] = [];
  for (const [index, plan] of plans.entries()) {
    const stage = newStage(plan, path.join(opts.work, `stage-${index}${plan.name ? `-${plan.name}` : ''}`));
    for (const step of plan.steps) {
      opts.log?.(`[${plan.name ?? `stage ${index}`}] ${describe(step)}`);
      await runStep(stage, step, { ...opts, ignored, built });
    }
    built.push(stage);
  }
  return built;
}

function newStage(plan: StagePlan, root: string): BuiltStage {
  mkdirSync(root, { recursive: true });
  const stage: BuiltStage = {
    name: plan.name,
    from: plan.from,
    root,
    workdir: '/',
    env: {},
    user: null,
    cmd: null,
    hostPath: (imagePath) => path.join(root, path.posix.resolve(stage.workdir, imagePath)),
  };
  return stage;
}

async function runStep(
  stage: BuiltStage,
  step: Step,
  ctx: ReproduceOptions & { ignored: (relative: string) => boolean; built: BuiltStage[] },
): Promise<void> {
  switch (step.op) {
    case 'WORKDIR':
      stage.workdir = step.dir;
      mkdirSync(stage.hostPath('.'), { recursive: true });
      return;
    case 'ENV':
      Object.assign(stage.env, step.vars);
      return;
    case 'USER':
      stage.user = step.user;
      return;
    case 'EXPOSE':
      return;
    case 'CMD':
      stage.cmd = step.args;
      return;
    case 'COPY':
      return copy(stage, step, ctx);
    case 'RUN':
      return run(step.command, stage.hostPath('.'), { ...ctx.env, ...stage.env }, ctx.log);
  }
}

function copy(stage: BuiltStage, step: Extract<Step, { op: 'COPY' }>, ctx: { context: string; ignored: (relative: string) => boolean; built: BuiltStage[] }): void {
  const source = step.from === null ? null : ctx.built.find((s) => s.name === step.from);
  if (step.from !== null && !source) throw new Error(`Dockerfile: COPY --from=${step.from}: no such stage`);
  const intoFolder = step.dest.endsWith('/') || step.sources.length > 1;
  const dest = stage.hostPath(step.dest);
  for (const src of step.sources) {
    const from = source ? source.hostPath(src) : path.join(ctx.context, src);
    if (!existsSync(from)) throw new Error(`COPY ${src}: not found (${from})`);
    const target = statSync(from).isDirectory() ? dest : intoFolder ? path.join(dest, path.basename(src)) : dest;
    const filter = source ? undefined : (file: string) => !ctx.ignored(path.relative(ctx.context, file).split(path.sep).join('/'));
    if (filter && !filter(from)) throw new Error(`COPY ${src}: excluded by .dockerignore`);
    mkdirSync(statSync(from).isDirectory() ? target : path.dirname(target), { recursive: true });
    cpSync(from, target, { recursive: true, filter, verbatimSymlinks: true });
  }
}

function run(command: string, cwd: string, env: Record<string, string>, log?: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) log?.(`    ${line}`);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`RUN ${command} exited with ${code}:\n${output.slice(-4000)}`))));
  });
}

function describe(step: Step): string {
  switch (step.op) {
    case 'COPY':
      return `COPY ${step.from ? `--from=${step.from} ` : ''}${step.sources.join(' ')} ${step.dest}`;
    case 'RUN':
      return `RUN ${step.command}`;
    default:
      return step.op;
  }
}

/** Bytes of the files under `dir` (`du --apparent-size`, what an image layer holds) and on disk (`du`). */
export function sizeOf(dir: string): { bytes: number; diskBytes: number } {
  const du = (args: string[]) => Number(execFileSync('du', [...args, dir], { encoding: 'utf8' }).split('\t')[0]);
  return { bytes: du(['-s', '--bytes']), diskBytes: du(['-s', '--block-size=1']) };
}

/** The Node major version of an official node image tag (node:24-bookworm-slim: 24). */
export function nodeMajorOf(image: string): number | null {
  const m = /^node:(\d+)/.exec(image);
  return m ? Number(m[1]) : null;
}
