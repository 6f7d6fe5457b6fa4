/**
 * `lessons doctor`: every integration that fails silently, checked, each with the command that
 * fixes it. A check that fails makes the command exit 1; `warn` and `skip` are advice.
 */
import path from 'node:path';
import { errorMessage } from '../errors.js';
import { CHECK_HOOKS } from '../githooks/scripts.js';
import { readTextOrUndefined } from '../io/fs.js';
import { pathExists } from '../io/paths.js';
import { findRepoRoot } from '../io/repo.js';
import type { Policy } from '../policy/policy.js';
import { checkAllAgentSettings } from './agent-settings.js';
import { findOnPath, hookBinary, withoutNpmBins } from './binary.js';
import { claudeRulesCheck } from './claude-rules.js';
import { check, type Check } from './check.js';
import type { HookRunRow } from './hook-run.js';
import { workflowInstallCheck } from './workflow.js';
import { INSTALL_HINT } from '../init/install.js';

export interface DoctorReport {
  root: string;
  checks: Check[];
  /** With `runHooks`: each hook run, as git or the harness would receive it. */
  hookRuns?: HookRunRow[];
  /** Some check failed: the command exits 1. */
  broken: boolean;
}

export interface DoctorOptions {
  cwd: string;
  /** The PATH the hooks would see (the caller's environment). */
  pathValue: string | undefined;
  /** Run every installed hook with a sample event in a temporary copy (`--run-hooks`). */
  runHooks?: boolean;
}

function readOrEmpty(file: string): string {
  return readTextOrUndefined(file) ?? '';
}

/**
 * A hook script of another tool that runs lessons: one that names it, husky's (whose generated
 * script runs .husky/<hook>), or lefthook's and the pre-commit framework's with lessons in their config.
 */
function otherRunsLessons(root: string, hook: string, text: string): boolean {
  const mentions = (content: string) => /\blessons\b/.test(content);
  if (mentions(text) || mentions(readOrEmpty(path.join(root, '.husky', hook)))) return true;
  const configs = ['.pre-commit-config.yaml', 'lefthook.yml', 'lefthook.yaml', '.lefthook.yml'].map((file) => readOrEmpty(path.join(root, file)));
  return /pre-commit|lefthook/.test(text) && configs.some(mentions);
}

/** A multi-line error message as one line of the report. */
function oneLine(text: string): string {
  return text.split('\n').map((line) => line.trim()).filter((line) => line !== '').join(' ');
}

type CheckHook = (typeof CHECK_HOOKS)[number];

/** The git hooks check, and where the hooks are and which of them run lessons (undefined: unreadable). */
async function gitHooksCheck(root: string, binary: string | undefined): Promise<{ check: Check; hooks?: { dir: string; running: CheckHook[] } }> {
  const { hooksStatus } = await import('../githooks/install.js');
  let status: Awaited<ReturnType<typeof hooksStatus>>;
  try {
    status = await hooksStatus({ cwd: root });
  } catch (error) {
    return { check: check('git-hooks', 'fail', `cannot read the git hooks: ${errorMessage(error)}`, 'run it inside a git repository') };
  }
  const running = status.hooks.filter((hook) => {
    if (hook.state === 'lessons') return true;
    if (hook.state !== 'other') return false;
    return otherRunsLessons(root, hook.hook, readOrEmpty(path.join(status.dir, hook.hook)));
  });
  const hooks = { dir: status.dir, running: CHECK_HOOKS.filter((hook) => running.some((item) => item.hook === hook)) };
  return { check: gitHooksVerdict(root, status.dir, running.map((item) => item.hook), binary), hooks };
}

function gitHooksVerdict(root: string, dir: string, running: readonly string[], binary: string | undefined): Check {
  const install = 'run `lessons hooks install` (husky, lefthook, pre-commit framework: references/git-hooks.md)';
  if (running.length === 0) return check('git-hooks', 'fail', `no git hook in ${path.relative(root, dir) || dir} runs lessons: commits and pushes are not checked`, install);
  if (binary === undefined) {
    return check('git-hooks', 'fail', 'the git hooks find `lessons` neither in node_modules/.bin nor on PATH: pre-commit and pre-push block, the trailer is never added', INSTALL_HINT);
  }
  const missing = CHECK_HOOKS.filter((hook) => !running.includes(hook));
  if (missing.length > 0) {
    const [runs, doNot] = [running.length === 1 ? 'runs' : 'run', missing.length === 1 ? 'does not' : 'do not'];
    return check('git-hooks', 'warn', `${running.join(', ')} ${runs} lessons; ${missing.join(', ')} ${doNot}`, install);
  }
  return check('git-hooks', 'ok', `${CHECK_HOOKS.join(', ')} run lessons (${binary})`);
}

async function indexCheck(root: string): Promise<Check> {
  const { checkIndex } = await import('../store/index-write.js');
  try {
    const result = await checkIndex({ cwd: root });
    if (result.fresh) return check('index', 'ok', `${result.path} is fresh`);
    const { added, removed, changed } = result.diff;
    const what = result.missing ? 'is missing' : `is stale (${added.length} added, ${removed.length} removed, ${changed.length} changed)`;
    return check('index', 'fail', `${result.path} ${what}: preflight and the hooks scan the lesson files on every run, and the guard blocks`, 'run `lessons index` and commit it');
  } catch (error) {
    return check('index', 'fail', oneLine(errorMessage(error)), 'run `lessons lint`, fix what it reports, then `lessons index`');
  }
}

async function policyCheck(root: string): Promise<{ check: Check; policy: Policy | undefined }> {
  const { loadPolicy } = await import('../policy/validate-policy.js');
  try {
    return { check: check('policy', 'ok', 'policy/workflow-policy.json is valid'), policy: loadPolicy(root) };
  } catch (error) {
    return { check: check('policy', 'fail', `${oneLine(errorMessage(error))}; until then the hooks use the default policy`, 'fix the fields named (schemas/policy.schema.json)'), policy: undefined };
  }
}

async function searchCacheCheck(root: string): Promise<Check> {
  const { CACHE_FILE, openSearch } = await import('../search/engine.js');
  try {
    const opened = await openSearch(root);
    opened.close();
    if (opened.warning) return check('search-cache', 'fail', opened.warning, 'run `lessons index`');
    if (!pathExists(path.join(root, CACHE_FILE))) {
      return check('search-cache', 'warn', `${CACHE_FILE} cannot be written: every preflight and hook rebuilds the search index`, 'make .lessons/ writable');
    }
    return check('search-cache', 'ok', `${CACHE_FILE} matches the index`);
  } catch (error) {
    return check('search-cache', 'fail', `the search index cannot be built: ${errorMessage(error)}`, 'run `lessons lint` and `lessons index`');
  }
}

async function exportsCheck(root: string): Promise<Check> {
  const [{ checkExports, exportedTargets, isStale }, { EXPORT_TARGETS }] = await Promise.all([import('../export/export.js'), import('../export/targets.js')]);
  const targets = exportedTargets(root);
  if (targets.length === 0) return check('exports', 'skip', `no exports (\`lessons export --to ${EXPORT_TARGETS.join('|')}\` writes them)`);
  try {
    const stale: string[] = [];
    const cut: string[] = [];
    for (const { target, result } of await checkExports(root, targets)) {
      if (isStale(result)) stale.push(target);
      cut.push(...result.warnings.map((warning) => warning.message));
    }
    if (stale.length > 0) return check('exports', 'fail', `stale: ${stale.join(', ')} (agents read old lessons; the ci stage blocks)`, stale.map((target) => `lessons export --to ${target}`).join(' && '));
    // What a tool reads only in part is as silent as a stale export: the agent never sees the rest.
    if (cut.length > 0) return check('exports', 'warn', `${targets.join(', ')} current, but cut where agents read them: ${cut.join('; ')}`, 'give lessons that need not apply everywhere trigger paths (they then go to path-scoped rules), retire what no longer applies, or shorten the longest checklists');
    return check('exports', 'ok', `${targets.join(', ')} current`);
  } catch (error) {
    return check('exports', 'fail', `the exports cannot be checked: ${errorMessage(error)}`, 'run `lessons lint`');
  }
}

function reviewerCheck(policy: Policy | undefined, pathValue: string | undefined): Check {
  if (!policy) return check('reviewer', 'skip', 'not checked: the policy is invalid');
  const program = policy.review.command[0] ?? '';
  const found = program !== '' && findOnPath(program, pathValue) !== undefined;
  if (found) return check('reviewer', 'ok', `the reviewer command \`${program}\` is on PATH`);
  const fix = `install \`${program}\` or set review.command in the policy`;
  if (policy.review.enabled) return check('reviewer', 'fail', `the reviewer command \`${program}\` is not on PATH: the final guard and \`lessons review\` report reviewer-failed`, fix);
  return check('reviewer', 'skip', `the reviewer command \`${program}\` is not on PATH (review.enabled is false; \`lessons review\` and \`capture --from-error\` need it)`, fix);
}

export async function doctor(options: DoctorOptions): Promise<DoctorReport> {
  const root = findRepoRoot(options.cwd);
  const hookPath = withoutNpmBins(options.pathValue);
  const binary = hookBinary(root, hookPath);
  const onPath = findOnPath('lessons', hookPath) !== undefined;
  const policy = await policyCheck(root);
  const git = await gitHooksCheck(root, binary);
  const checks = [
    git.check,
    ...checkAllAgentSettings(root, binary, onPath),
    await indexCheck(root),
    policy.check,
    await searchCacheCheck(root),
    await exportsCheck(root),
    await claudeRulesCheck(root),
    reviewerCheck(policy.policy, options.pathValue),
    workflowInstallCheck(root),
  ];
  const runs = await hookRunChecks(root, hookPath, git.hooks, options.runHooks === true);
  checks.push(...runs.checks);
  const report: DoctorReport = { root, checks, broken: checks.some((item) => item.status === 'fail') };
  return runs.rows ? { ...report, hookRuns: runs.rows } : report;
}

/**
 * The hook runs, or a line saying how to ask for them. They spawn a process per installed hook
 * (about 0.2 s each), so they wait for `--run-hooks`.
 */
async function hookRunChecks(root: string, pathValue: string, hooks: { dir: string; running: CheckHook[] } | undefined, run: boolean): Promise<{ checks: Check[]; rows?: HookRunRow[] }> {
  if (!run) return { checks: [check('hook-runs', 'skip', 'the hooks were not run', 'run `lessons doctor --run-hooks` to run each installed hook with a sample event and see what git and the agent receive')] };
  const { runHookChecks } = await import('./hook-runs.js');
  return runHookChecks({ root, pathValue, gitHooks: hooks ?? { dir: '', running: [] } });
}
