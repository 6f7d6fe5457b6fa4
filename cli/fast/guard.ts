import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../src/errors.js';
import { resolveCwd } from '../../src/io/repo.js';
import { checkStageFlags, disabledBy } from '../../src/guard/stages.js';
import { OUTPUT_FORMATS, isOutputFormat } from '../../src/render/registry.js';
import { listWords } from '../../src/util/plural.js';
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

/** Where --pr-comment writes: a file inside the repository, checked before the guard runs. */
async function commentTarget(cwd: string, file: string, hint: string): Promise<string> {
  const [{ isWithin }, { findRepoRoot }] = await Promise.all([import('../../src/io/inside.js'), import('../../src/io/repo.js')]);
  const target = path.resolve(cwd, file);
  if (!isWithin(findRepoRoot(cwd), target)) throw new UsageError(`--pr-comment takes a file inside the repository (such as .lessons/pr-comment.md), got '${file}'\n${hint}`);
  return target;
}

/** The PR comment's body, written atomically (the workflow's comment step reads it). */
async function writePrComment(cwd: string, target: string, text: string): Promise<void> {
  const [{ writeInRepo }, { findRepoRoot }] = await Promise.all([import('../../src/io/fs.js'), import('../../src/io/repo.js')]);
  writeInRepo(findRepoRoot(cwd), target, text);
}

/** `lessons guard`: on the commit path, so it loads only what its gates use. */
export async function guardCommand({ values, positionals, hint }: GuardFlags): Promise<0 | 1 | 2> {
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'\n${hint}`);
  const format = values.json ? 'json' : (values.format ?? 'text');
  if (!isOutputFormat(format)) throw new UsageError(`--format must be ${listWords(OUTPUT_FORMATS, 'or')}, got '${format}'\n${hint}`);
  const profile = checkStageFlags(values.stage, values, hint);
  if (values['pr-comment'] !== undefined && !profile.changeLessons) throw new UsageError(`--pr-comment applies to ci; ${profile.stage} has no lessons for the change`);
  const commentFile = values['pr-comment'] === undefined ? undefined : await commentTarget(resolveCwd(values.C), values['pr-comment'], hint);
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
  const { guardReporters, prComment } = await import('../../src/guard/reporter.js');
  const { renderStdout, stepSummaryFor } = await import('../../src/render/registry.js');
  if (commentFile !== undefined) await writePrComment(resolveCwd(values.C), commentFile, prComment(report)!);
  io.out(renderStdout(guardReporters, format, report, process.env));
  const summary = stepSummaryFor(guardReporters, report, process.env);
  if (summary) fs.appendFileSync(summary.file, summary.text);
  return report.blocked ? 1 : 0;
}
