import fs from 'node:fs';
import { parseFastArgs } from './args.js';
import { UsageError } from '../../src/errors.js';
import { resolveCwd } from '../../src/io/repo.js';
import { STAGES, type Stage } from '../../src/policy/policy.js';
import { io } from '../command.js';
import { printable } from '../../src/util/printable.js';

const USAGE = `usage: lessons guard --stage pre-commit|pre-push|ci|final [--json] [--base <ref>] [--head <ref>] [-C <dir>]

Runs the workflow gates of policy/workflow-policy.json for a stage and exits 1 when one blocks.
  --stage   pre-commit: the staged change; pre-push and ci: the commits since the base;
            final: the working tree (never blocks)
  --base    the commit to compare against (default: GITHUB_BASE_REF in CI, the upstream,
            or the default branch)
  --head    the commit to check (pre-push and ci; default HEAD)
  --json    print the report as JSON
Exit codes: 0 nothing blocks, 1 blocked, 2 usage or configuration error.`;

/** `lessons guard`: on the commit path, so it skips yargs and loads only what its gates use. */
export async function run(args: string[]): Promise<0 | 1 | 2> {
  const { values, positionals } = parseFastArgs(
    args,
    { stage: { type: 'string' }, json: { type: 'boolean', default: false }, base: { type: 'string' }, head: { type: 'string' } },
    USAGE,
  );
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'\n${USAGE}`);
  const stage = values.stage;
  if (stage === undefined) throw new UsageError(`say which stage to check with --stage\n${USAGE}`);
  if (!(STAGES as readonly string[]).includes(stage)) throw new UsageError(`unknown stage '${stage}': use one of ${STAGES.join(', ')}`);
  if (values.head !== undefined && (stage === 'pre-commit' || stage === 'final')) {
    throw new UsageError(`--head applies to pre-push and ci; ${stage} checks the ${stage === 'pre-commit' ? 'staged tree' : 'working tree'}`);
  }
  if (values.base !== undefined && stage === 'pre-commit') throw new UsageError('--base applies to pre-push, ci and final; pre-commit compares the staged tree with HEAD');
  if (process.env.LESSONS_DISABLE === '1' && (stage === 'pre-commit' || stage === 'pre-push')) {
    io.err(`lessons: LESSONS_DISABLE=1: skipping the ${stage} guard`);
    return 0;
  }
  const { runGuard } = await import('../../src/guard/command.js');
  const report = await runGuard({
    cwd: resolveCwd(values.C),
    stage: stage as Stage,
    now: new Date(),
    env: process.env,
    base: values.base,
    head: values.head,
  });
  const { reportText, annotations, stepSummary } = await import('../../src/guard/report.js');
  // GitHub sets GITHUB_ACTIONS=true in every step.
  const actions = (process.env.GITHUB_ACTIONS ?? '') !== '' && process.env.GITHUB_ACTIONS !== 'false';
  if (values.json) io.out(JSON.stringify(report, null, 2));
  else {
    if (actions) process.stdout.write(printable(annotations(report)));
    process.stdout.write(printable(reportText(report), { keepColour: true }));
  }
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (actions && summary) fs.appendFileSync(summary, stepSummary(report));
  return report.blocked ? 1 : 0;
}
