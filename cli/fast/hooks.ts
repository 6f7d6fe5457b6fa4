import { UsageError } from '../../src/errors.js';
import { didYouMean } from '../../src/util/suggest.js';
import { resolveCwd } from '../../src/io/repo.js';
import { io } from '../command.js';
import type { HooksFlags } from '../commands/hooks.js';
import { HARNESS_NAMES, harnessNamed, type Harness } from '../../src/harness/registry.js';

const LABELS: Record<string, string> = {
  installed: 'installed',
  chained: 'installed, chained to the existing hook',
  updated: 'updated',
  unchanged: 'already installed',
  refused: 'NOT installed',
  removed: 'removed',
  restored: 'removed, previous hook restored',
  'left-alone': 'left alone',
  absent: 'not installed',
};

/** `lessons hooks`: prepare-commit-msg and commit-msg run it on every commit. */
export async function hooksCommand({ values, positionals, hint }: HooksFlags): Promise<0 | 1 | 2> {
  const [action, ...rest] = positionals;
  const cwd = resolveCwd(values.C);
  if (action === 'prepare-commit-msg' || action === 'commit-msg') {
    const [file, source] = rest;
    if (file === undefined) throw new UsageError(`lessons hooks ${action} needs the message file git passes`);
    if (process.env.LESSONS_DISABLE === '1') {
      io.err(`lessons: LESSONS_DISABLE=1: skipping the ${action} hook`);
      return 0;
    }
    // A message hook never stops a commit: whatever goes wrong, the commit goes on without the trailer.
    try {
      const { addPreflightTrailer } = await import('../../src/githooks/trailer.js');
      const outcome = await addPreflightTrailer({
        cwd,
        file,
        source: source ?? process.env.PRE_COMMIT_COMMIT_MSG_SOURCE,
        hook: action,
        now: new Date(),
      });
      if (outcome.warn) io.err(`lessons: ${outcome.note}`);
    } catch (error) {
      io.err(`lessons: no Lessons-Preflight trailer: ${(error as Error).message}`);
    }
    return 0;
  }
  if (action === 'refresh') {
    // The post-merge, post-checkout and post-rewrite hooks: a cache brought up to date, never a failed git command.
    if (process.env.LESSONS_DISABLE === '1') return 0;
    try {
      const { findRepoRoot } = await import('../../src/io/repo.js');
      await (await import('../../src/search/engine.js')).refreshSearch(findRepoRoot(cwd));
    } catch (error) {
      io.err(`lessons: the search cache was not refreshed: ${(error as Error).message}`);
    }
    return 0;
  }
  if (action !== 'install' && action !== 'uninstall' && action !== 'status') {
    if (action === undefined) throw new UsageError(`lessons hooks needs an action: install, uninstall or status\n${hint}`);
    throw new UsageError(`unknown hooks action '${action}'${didYouMean(action, ['install', 'uninstall', 'status'], (name) => `lessons hooks ${name}`)}\n${hint}`);
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'\n${hint}`);
  const harnesses = HARNESS_NAMES.filter((name) => (values as Record<string, unknown>)[name] === true);
  if (harnesses.length > 0) {
    if (action === 'status') throw new UsageError(`--${harnesses[0]} goes with \`lessons hooks install\` or \`uninstall\` (\`lessons doctor\` checks the agent settings)\n${hint}`);
    return agentHooks(action, cwd, harnesses, values.json === true);
  }
  const { installHooks, uninstallHooks, hooksStatus } = await import('../../src/githooks/install.js');
  // Hooks that call the guard belong in a lessons repository; uninstall cleans up anywhere.
  if (action !== 'uninstall') (await import('../../src/io/repo.js')).findRepoRoot(cwd);
  if (action === 'status') {
    const status = await hooksStatus({ cwd });
    if (values.json) io.out(JSON.stringify(status, null, 2));
    else {
      io.out(`hooks directory: ${status.dir}${status.hooksPath ? ` (core.hooksPath ${status.hooksPath})` : ''}`);
      for (const hook of status.hooks) {
        const state = hook.state === 'lessons' ? `lessons${hook.chained ? ' (calls the previous hook first)' : ''}` : hook.state === 'other' ? 'another tool\'s hook' : 'none';
        io.out(`  ${hook.hook}: ${state}`);
      }
      for (const note of status.notes) io.out(`note: ${note}`);
    }
    return 0;
  }
  const result = action === 'install' ? await installHooks({ cwd }) : await uninstallHooks({ cwd });
  const driver = await import('../../src/index/merge-driver.js');
  const mergeDriver = action === 'install' ? await driver.installMergeDriver({ cwd }) : { removed: await driver.uninstallMergeDriver({ cwd }) };
  const refused = result.hooks.some((hook) => hook.action === 'refused');
  if (values.json) io.out(JSON.stringify({ ...result, mergeDriver }, null, 2));
  else {
    io.out(`hooks directory: ${result.dir}${result.hooksPath ? ` (core.hooksPath ${result.hooksPath})` : ''}`);
    for (const hook of result.hooks) io.out(`  ${hook.hook}: ${LABELS[hook.action]}${hook.message ? ` — ${hook.message}` : ''}`);
    if ('config' in mergeDriver) {
      const committed = { added: '; added merge=union to .gitattributes (commit it)', updated: '; .gitattributes now says merge=union, for clones without the driver (commit it)', present: '' }[mergeDriver.attributes];
      io.out(`  merge driver for lessons/index.json: ${mergeDriver.config === 'set' ? 'set in git config and .git/info/attributes' : 'already set'}${committed}`);
    } else if (mergeDriver.removed) io.out('  merge driver for lessons/index.json: removed from git config (merge=union in .gitattributes still applies)');
    for (const note of result.notes) io.out(`note: ${note}`);
  }
  return refused ? 1 : 0;
}

/** `lessons hooks install|uninstall --<harness>`: the agent harness settings, merged. */
async function agentHooks(action: 'install' | 'uninstall', cwd: string, harnesses: readonly Harness[], json: boolean): Promise<0> {
  const { findRepoRoot } = await import('../../src/io/repo.js');
  const root = findRepoRoot(cwd);
  const results = [];
  for (const name of harnesses) {
    const settings = await harnessNamed(name).loadSettings();
    results.push({ harness: name, ...(action === 'install' ? settings.install(root) : settings.uninstall(root)) });
  }
  const said = action === 'install' ? ['lessons hooks written', 'already has the lessons hooks'] : ['lessons hooks removed', 'has no lessons hooks'];
  if (json) io.out(JSON.stringify(results, null, 2));
  else for (const result of results) io.out(`${result.path}: ${result.changed ? said[0] : said[1]}`);
  return 0;
}
