import fs from 'node:fs';
import { parseFastArgs } from './args.js';
import { UsageError } from '../../src/errors.js';
import { resolveCwd } from '../../src/io/repo.js';
import { checkStageFlags, disabledBy } from '../../src/guard/stages.js';
import { io } from '../command.js';

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
  const profile = checkStageFlags(values.stage, values, USAGE);
  if (disabledBy(profile, process.env)) {
    io.err(`lessons: LESSONS_DISABLE=1: skipping the ${profile.stage} guard`);
    return 0;
  }
  const { runGuard } = await import('../../src/guard/command.js');
  const report = await runGuard({
    cwd: resolveCwd(values.C),
    stage: profile.stage,
    now: new Date(),
    env: process.env,
    base: values.base,
    head: values.head,
  });
  const { guardReporters } = await import('../../src/reporters/guard.js');
  const { renderStdout, stepSummaryFor } = await import('../../src/reporters/registry.js');
  io.out(renderStdout(guardReporters, values.json ? 'json' : 'text', report, process.env));
  const summary = stepSummaryFor(guardReporters, report, process.env);
  if (summary) fs.appendFileSync(summary.file, summary.text);
  return report.blocked ? 1 : 0;
}
