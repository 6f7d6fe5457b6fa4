import fs from 'node:fs';
import { UsageError } from '../../src/errors.js';
import { resolveCwd } from '../../src/io/repo.js';
import { checkStageFlags, disabledBy } from '../../src/guard/stages.js';
import { io } from '../command.js';
import type { GuardFlags } from '../commands/guard.js';
import type { GitRepo } from '../../src/io/git/repo.js';

async function openRepoOf(cwd: string): Promise<GitRepo> {
  const { openRepo } = await import('../../src/io/git/repo.js');
  const { findRepoRoot } = await import('../../src/io/repo.js');
  return openRepo(findRepoRoot(cwd));
}

async function stagedTreeOf(repo: Promise<GitRepo>): Promise<string> {
  const { stagedTree } = await import('../../src/io/git/changes.js');
  return stagedTree(await repo);
}

/** `lessons guard`: on the commit path, so it loads only what its gates use. */
export async function guardCommand({ values, positionals, hint }: GuardFlags): Promise<0 | 1 | 2> {
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'\n${hint}`);
  const profile = checkStageFlags(values.stage, values, hint);
  if (disabledBy(profile, process.env)) {
    io.err(`lessons: LESSONS_DISABLE=1: skipping the ${profile.stage} guard`);
    return 0;
  }
  const { runGuard } = await import('../../src/guard/guard.js');
  // The staged tree for the mark that tells prepare-commit-msg this commit was checked (not made
  // with --no-verify): git writes it while the gates run (at 100,000 lessons ~0.3 s). The guard
  // changes nothing staged, so it is the tree the gates check.
  // The repository opened once, for the mark and the gates.
  const repo = openRepoOf(resolveCwd(values.C));
  repo.catch(() => undefined);
  const tree = profile.head === 'index' ? stagedTreeOf(repo) : undefined;
  tree?.catch(() => undefined);
  const report = await runGuard({
    cwd: resolveCwd(values.C),
    stage: profile.stage,
    now: new Date(),
    env: process.env,
    base: values.base,
    head: values.head,
    repo,
  });
  if (tree) {
    const { markPreCommitChecked } = await import('../../src/githooks/commit-check.js');
    const { findRepoRoot } = await import('../../src/io/repo.js');
    await markPreCommitChecked(findRepoRoot(resolveCwd(values.C)), tree);
  }
  const { guardReporters } = await import('../../src/guard/reporter.js');
  const { renderStdout, stepSummaryFor } = await import('../../src/render/registry.js');
  io.out(renderStdout(guardReporters, values.json ? 'json' : 'text', report, process.env));
  const summary = stepSummaryFor(guardReporters, report, process.env);
  if (summary) fs.appendFileSync(summary.file, summary.text);
  return report.blocked ? 1 : 0;
}
