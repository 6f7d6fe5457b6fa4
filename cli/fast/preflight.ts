import { parseFastArgs } from './args.js';
import { UsageError } from '../../src/errors.js';
import { resolveCwd } from '../../src/io/repo.js';
import { io } from '../command.js';

const USAGE = `Usage: lessons preflight "<task>" [options]

Print the lessons to have in front of you before a task, as a checklist, and record a
receipt in .lessons/preflight/last.json. With --tool, --path or --command and no task
(hook mode) it returns at most the policy's hook_max lessons whose triggers match,
critical ones first; a critical lesson whose trigger matches is always returned.

Options:
  -C <dir>              run as if started in <dir>
  --path <file|glob>    a file about to be touched (repeatable); matched against trigger paths
  --tool <name>         the tool about to run (e.g. Edit, Bash); matched against trigger tools
  --command "<cmd>"     the shell command about to run; matched against trigger commands
  --project <name>      prefer lessons scoped to this project
  --budget <tokens>     cap the printed size, dropping whole lessons from the bottom of the
                        ranking; a token is estimated as 4 characters
  --limit <n>           show at most n lessons (critical trigger matches are always shown)
  --format <fmt>        text (default), markdown (for a PR or status update) or json
  --json                same as --format json
  --rerank              ask the configured reviewer (policy review.command) which of the
                        selected lessons apply; keep only those, with its reasons. Falls
                        back to the plain ranking, and says so, when the reviewer fails.
                        Task mode only; never used by hooks
  -h, --help            show this help

Exit codes: 0 on a normal run (also when nothing matches), 2 on a usage error or outside
a lessons repository.
`;

const HELP_HINT = 'run `lessons preflight --help` for the options';

function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0) throw new UsageError(`${flag} takes a positive whole number, got '${value}'\n${HELP_HINT}`);
  return Number(value);
}

/**
 * The reviewer's second opinion, loaded only with --rerank. The module path is computed so the
 * bundler leaves it out of the fast preflight bundle (it loads ajv and the subprocess code);
 * from the bundle (dist/fast/) and from the module tree (dist/cli/fast/) it is the same file.
 */
async function reranker(cwd: string, task: string): Promise<NonNullable<Parameters<typeof import('../../src/preflight/command.js').preflight>[0]['rerank']>> {
  const fromBundle = import.meta.url.includes('/dist/fast/');
  const file = fromBundle ? '../src/preflight/rerank.js' : '../../src/preflight/rerank.js';
  const { repositoryReranker } = (await import(new URL(file, import.meta.url).href)) as typeof import('../../src/preflight/rerank.js');
  return repositoryReranker(cwd, task);
}

export async function run(args: string[]): Promise<0 | 1 | 2> {
  const { values, positionals: words } = parseFastArgs(
    args,
    {
      path: { type: 'string', multiple: true },
      tool: { type: 'string' },
      command: { type: 'string' },
      project: { type: 'string' },
      budget: { type: 'string' },
      limit: { type: 'string' },
      format: { type: 'string' },
      json: { type: 'boolean' },
      rerank: { type: 'boolean' },
    },
    HELP_HINT,
  );
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const format = values.json ? 'json' : (values.format ?? 'text');
  if (format !== 'text' && format !== 'markdown' && format !== 'json') {
    throw new UsageError(`--format must be text, markdown or json, got '${format}'\n${HELP_HINT}`);
  }
  const task = words.join(' ');
  const paths = values.path ?? [];
  if (task.trim() === '' && paths.length === 0 && values.tool === undefined && values.command === undefined) {
    throw new UsageError(`give the task as text, or a --tool, --path or --command for hook mode\n${HELP_HINT}`);
  }
  if (values.rerank && task.trim() === '') throw new UsageError(`--rerank needs the task as text: it is not for hook mode\n${HELP_HINT}`);
  const budget = positiveInteger('--budget', values.budget);
  const limit = positiveInteger('--limit', values.limit);
  const cwd = resolveCwd(values.C);
  const { preflight } = await import('../../src/preflight/command.js');
  const result = await preflight({
    cwd,
    now: new Date(),
    task,
    paths,
    tool: values.tool ?? null,
    command: values.command ?? null,
    project: values.project ?? null,
    format,
    ...(budget === undefined ? {} : { budget }),
    ...(limit === undefined ? {} : { limit }),
    ...(values.rerank ? { rerank: await reranker(cwd, task) } : {}),
  });
  if (result.warning) io.err(`lessons: warning: ${result.warning}`);
  io.out(result.output);
  return 0;
}
