import { UsageError } from '../../src/errors.js';
import { resolveCwd } from '../../src/io/repo.js';
import { io, type ImportModule } from '../command.js';
import type { PreflightFlags } from '../commands/preflight.js';
import { OUTPUT_FORMATS, isOutputFormat } from '../../src/render/registry.js';
import { listWords } from '../../src/util/plural.js';

function positiveInteger(flag: string, value: string | undefined, hint: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0) throw new UsageError(`${flag} takes a positive whole number, got '${value}'\n${hint}`);
  return Number(value);
}

/**
 * The reviewer's second opinion, loaded only with --rerank. The module path is computed so the
 * bundler leaves it out of the fast preflight bundle (it loads ajv and the subprocess code);
 * from the bundle (dist/fast/) and from the module tree (dist/cli/fast/) it is the same file.
 * `importModule` is the loader's import(): code compiled from V8's code cache cannot call
 * import() itself on Node 20 (cli/fast/bundle.ts).
 */
async function reranker(cwd: string, task: string, importModule: ImportModule): Promise<NonNullable<Parameters<typeof import('../../src/preflight/preflight.js').preflight>[0]['rerank']>> {
  const fromBundle = import.meta.url.includes('/dist/fast/');
  const file = fromBundle ? '../src/review/rerank.js' : '../../src/review/rerank.js';
  const { repositoryReranker } = (await importModule(new URL(file, import.meta.url).href)) as typeof import('../../src/review/rerank.js');
  return repositoryReranker(cwd, task);
}

/** validate-policy.ts, out of the fast bundle (it loads ajv's compiled validators), from the bundle (dist/fast/) and the module tree (dist/cli/fast/) alike. */
function validatePolicyUrl(): string {
  const fromBundle = import.meta.url.includes('/dist/fast/');
  return new URL(fromBundle ? '../src/policy/validate-policy.js' : '../../src/policy/validate-policy.js', import.meta.url).href;
}

/** `lessons preflight`: before every task and, in hook mode, every tool call. */
export async function preflightCommand({ values, positionals: words, hint }: PreflightFlags, importModule: ImportModule): Promise<0 | 1 | 2> {
  const format = values.json ? 'json' : (values.format ?? 'text');
  if (!isOutputFormat(format)) throw new UsageError(`--format must be ${listWords(OUTPUT_FORMATS, 'or')}, got '${format}'\n${hint}`);
  const task = words.join(' ');
  const paths = values.path ?? [];
  if (task.trim() === '' && paths.length === 0 && values.tool === undefined && values.command === undefined) {
    throw new UsageError(`give the task as text, or a --tool, --path or --command for hook mode\n${hint}`);
  }
  if (values.rerank && task.trim() === '') throw new UsageError(`--rerank needs the task as text: it is not for hook mode\n${hint}`);
  const budget = positiveInteger('--budget', values.budget, hint);
  const limit = positiveInteger('--limit', values.limit, hint);
  const cwd = resolveCwd(values.C);
  const [{ preflight }, { policyKnownValid }, { findRepoRoot }, { readPolicyFile }] = await Promise.all([
    import('../../src/preflight/preflight.js'),
    import('../../src/policy/policy-checked.js'),
    import('../../src/io/repo.js'),
    import('../../src/io/policy-file.js'),
  ]);
  // Read once: the warning checks the file preflight then selects with; the schema check (and its validator) loads only for a policy not known valid.
  const root = findRepoRoot(cwd);
  const policyFile = readPolicyFile(root);
  const usable = policyKnownValid(root, policyFile) ? undefined : ((await importModule(validatePolicyUrl())) as typeof import('../../src/policy/validate-policy.js')).usablePolicy(root, policyFile);
  if (usable) io.err(`lessons: warning: ${usable.warning}`);
  const result = await preflight({
    cwd,
    now: new Date(),
    task,
    paths,
    tool: values.tool ?? null,
    command: values.command ?? null,
    project: values.project ?? null,
    format,
    policyFile: usable?.raw ?? policyFile,
    ...(budget === undefined ? {} : { budget }),
    ...(limit === undefined ? {} : { limit }),
    ...(values.rerank ? { rerank: await reranker(cwd, task, importModule) } : {}),
  });
  if (result.warning) io.err(`lessons: warning: ${result.warning}`);
  io.out(result.output);
  return 0;
}
