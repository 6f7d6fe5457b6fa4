import { UsageError } from '../errors.js';
import { STAGES, type Stage } from '../policy/policy.js';
import { listWords } from '../util/plural.js';
import { didYouMean } from '../util/suggest.js';

/**
 * What each guard stage means, as data: the guard's plan, its gates, its report and the
 * command's flag checks all read this table rather than comparing stage names.
 */
export interface StageProfile {
  stage: Stage;
  /** The tree checked: the staged tree, a commit (of a range), or the working tree. */
  head: 'index' | 'commit' | 'worktree';
  /** What the head is compared with: the HEAD commit, or a range's base (flags, env, upstream, default branch). */
  base: 'HEAD' | 'range';
  /** The head in words, for messages. */
  checks: string;
  /** Which of --base and --head the stage takes. */
  flags: { base: boolean; head: boolean };
  /** Environment variables that name the range, as the pre-commit framework sets them for pre-push. */
  refsFromEnv?: { base: string; head: string };
  /** GITHUB_BASE_REF names the base (a pull request in CI). */
  pullRequestBase: boolean;
  /** The default-branch fallback may use a local main or master (a working tree has no remote to trust). */
  localDefaultBranch: boolean;
  /** Preflight evidence: a fresh local receipt, or a `Lessons-Preflight:` trailer on each commit. */
  evidence: 'receipt' | 'trailers';
  /** A blocking finding fails the stage (final only advises). */
  canBlock: boolean;
  /** LESSONS_DISABLE=1 skips the stage (the local git hooks, never CI or the final check). */
  honoursDisable: boolean;
  /** The semantic review lane runs after the gates (when the policy enables it). */
  semanticReview: boolean;
  /** The exports the repository keeps (.cursor/rules, CLAUDE.md, AGENTS.md blocks) are checked for staleness. */
  checksExports: boolean;
  /** The fetched sources' lessons are scanned for secrets too (`lessons sources update --locked` ran before). */
  scansSources: boolean;
  /** Gate levels and commands come from the base revision's policy; a change to it is a finding (a change cannot switch its own gates off). */
  trustsBasePolicy: boolean;
  /** The report has the section "Lessons for this change" (the range's paths, commands and commit subjects; preflight/change.ts). */
  changeLessons: boolean;
  /** How a person skips the stage knowingly, when git offers a way. */
  bypass?: string;
  /** How a stale or missing lessons/index.json is fixed at this stage. */
  indexFix: (indexFile: string) => string;
}

const commitIndex = (indexFile: string): string => `run \`lessons index\` and commit ${indexFile}`;

export const STAGE_PROFILES: Record<Stage, StageProfile> = {
  'pre-commit': {
    stage: 'pre-commit',
    head: 'index',
    base: 'HEAD',
    checks: 'staged tree',
    flags: { base: false, head: false },
    pullRequestBase: false,
    localDefaultBranch: false,
    evidence: 'receipt',
    canBlock: true,
    honoursDisable: true,
    semanticReview: false,
    checksExports: false,
    scansSources: false,
    trustsBasePolicy: false,
    changeLessons: false,
    bypass: 'git commit --no-verify',
    indexFix: (indexFile) => `run \`lessons index\` and \`git add ${indexFile}\``,
  },
  'pre-push': {
    stage: 'pre-push',
    head: 'commit',
    base: 'range',
    checks: 'commits since the base',
    flags: { base: true, head: true },
    refsFromEnv: { base: 'PRE_COMMIT_FROM_REF', head: 'PRE_COMMIT_TO_REF' },
    pullRequestBase: false,
    localDefaultBranch: false,
    evidence: 'trailers',
    canBlock: true,
    honoursDisable: true,
    semanticReview: false,
    checksExports: false,
    scansSources: false,
    trustsBasePolicy: true,
    changeLessons: false,
    bypass: 'git push --no-verify',
    indexFix: commitIndex,
  },
  ci: {
    stage: 'ci',
    head: 'commit',
    base: 'range',
    checks: 'commits since the base',
    flags: { base: true, head: true },
    pullRequestBase: true,
    localDefaultBranch: false,
    evidence: 'trailers',
    canBlock: true,
    honoursDisable: false,
    semanticReview: false,
    checksExports: true,
    scansSources: true,
    trustsBasePolicy: true,
    changeLessons: true,
    indexFix: commitIndex,
  },
  final: {
    stage: 'final',
    head: 'worktree',
    base: 'range',
    checks: 'working tree',
    flags: { base: true, head: false },
    pullRequestBase: false,
    localDefaultBranch: true,
    evidence: 'receipt',
    canBlock: false,
    honoursDisable: false,
    semanticReview: true,
    checksExports: false,
    scansSources: false,
    trustsBasePolicy: false,
    changeLessons: false,
    indexFix: commitIndex,
  },
};

export function stageProfile(stage: Stage): StageProfile {
  return STAGE_PROFILES[stage];
}

function stagesTaking(flag: keyof StageProfile['flags']): string {
  return listWords(STAGES.filter((stage) => STAGE_PROFILES[stage].flags[flag]), 'and');
}

/** The stage a command line names, with the flags that stage does not take refused (usage errors). */
export function checkStageFlags(stage: string | undefined, flags: { base?: string | undefined; head?: string | undefined }, usage: string): StageProfile {
  if (stage === undefined) throw new UsageError(`say which stage to check with --stage\n${usage}`);
  if (!(STAGES as readonly string[]).includes(stage)) {
    throw new UsageError(`unknown stage '${stage}'${didYouMean(stage, STAGES, (name) => `--stage ${name}`)}\nthe stages are ${STAGES.join(', ')}`);
  }
  const profile = STAGE_PROFILES[stage as Stage];
  if (flags.head !== undefined && !profile.flags.head) throw new UsageError(`--head applies to ${stagesTaking('head')}; ${stage} checks the ${profile.checks}`);
  if (flags.base !== undefined && !profile.flags.base) {
    throw new UsageError(`--base applies to ${stagesTaking('base')}; ${stage} compares the ${profile.checks} with ${profile.base}`);
  }
  return profile;
}

/** LESSONS_DISABLE=1 turns off the stages that honour it. */
export function disabledBy(profile: StageProfile, env: Record<string, string | undefined>): boolean {
  return profile.honoursDisable && env.LESSONS_DISABLE === '1';
}
