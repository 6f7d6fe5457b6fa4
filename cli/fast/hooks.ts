import { parseFastArgs } from './args.js';
import { UsageError } from '../../src/errors.js';
import { didYouMean } from '../../src/util/suggest.js';
import { resolveCwd } from '../../src/io/repo.js';
import { io } from '../command.js';

const USAGE = `usage: lessons hooks install|uninstall|status [--json] [-C <dir>]
       lessons hooks install --claude|--codex|--cursor [--json] [-C <dir>]

  install     write pre-commit, prepare-commit-msg, commit-msg and pre-push hooks where git runs
              hooks from (core.hooksPath aware); a hook already there is moved aside and runs first
  uninstall   remove them and put back what install moved aside
  status      show which hooks are installed
  --claude    merge the agent hook entries into .claude/settings.json (Claude Code)
  --codex     merge them into .codex/hooks.json (Codex CLI)
  --cursor    merge them into .cursor/hooks.json (Cursor)
              (with any of these, only the agent settings are written; never clobbered)
The hooks call \`lessons hooks prepare-commit-msg|commit-msg <file> [source]\` to add the
Lessons-Preflight trailer, and \`lessons guard\` to check commits and pushes.
LESSONS_DISABLE=1 turns every hook into a no-op.

example: lessons hooks install && lessons hooks install --claude`;

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

/** `lessons hooks`: prepare-commit-msg and commit-msg run on every commit, so no yargs here. */
export async function run(args: string[]): Promise<0 | 1 | 2> {
  const { values, positionals } = parseFastArgs(
    args,
    { json: { type: 'boolean', default: false }, claude: { type: 'boolean', default: false }, codex: { type: 'boolean', default: false }, cursor: { type: 'boolean', default: false } },
    USAGE,
  );
  const [action, ...rest] = positionals;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
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
      const { addPreflightTrailer } = await import('../../src/hooks/trailer.js');
      const outcome = await addPreflightTrailer({
        cwd,
        file,
        source: source ?? process.env.PRE_COMMIT_COMMIT_MSG_SOURCE,
        hook: action,
        now: new Date(),
      });
      if (!outcome.added && outcome.warn) io.err(`lessons: ${outcome.note}`);
    } catch (error) {
      io.err(`lessons: no Lessons-Preflight trailer: ${(error as Error).message}`);
    }
    return 0;
  }
  if (action !== 'install' && action !== 'uninstall' && action !== 'status') {
    if (action === undefined) throw new UsageError(`lessons hooks needs an action: install, uninstall or status\n${USAGE}`);
    throw new UsageError(`unknown hooks action '${action}'${didYouMean(action, ['install', 'uninstall', 'status'], (name) => `lessons hooks ${name}`)}\n${USAGE}`);
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'\n${USAGE}`);
  const harnesses = (['claude', 'codex', 'cursor'] as const).filter((name) => values[name]);
  if (harnesses.length > 0) {
    if (action !== 'install') throw new UsageError(`--${harnesses[0]} goes with \`lessons hooks install\`\n${USAGE}`);
    return installAgentHooks(cwd, harnesses, values.json === true);
  }
  const { installHooks, uninstallHooks, hooksStatus } = await import('../../src/hooks/install.js');
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
      io.out(`  merge driver for lessons/index.json: ${mergeDriver.config === 'set' ? 'set in git config' : 'already set'}${mergeDriver.attributes === 'added' ? '; added to .gitattributes (commit it)' : ''}`);
    } else if (mergeDriver.removed) io.out('  merge driver for lessons/index.json: removed from git config');
    for (const note of result.notes) io.out(`note: ${note}`);
  }
  return refused ? 1 : 0;
}

/** `lessons hooks install --claude|--codex|--cursor`: the agent harness settings, merged. */
async function installAgentHooks(cwd: string, harnesses: readonly ('claude' | 'codex' | 'cursor')[], json: boolean): Promise<0> {
  const { findRepoRoot } = await import('../../src/io/repo.js');
  const { installClaudeHooks, installCodexHooks } = await import('../../src/hooks/claude-settings.js');
  const { installCursorHooks } = await import('../../src/hooks/cursor-settings.js');
  const root = findRepoRoot(cwd);
  const install = { claude: installClaudeHooks, codex: installCodexHooks, cursor: installCursorHooks };
  const results = harnesses.map((name) => ({ harness: name, ...install[name](root) }));
  if (json) io.out(JSON.stringify(results, null, 2));
  else for (const result of results) io.out(`${result.path}: ${result.changed ? 'lessons hooks written' : 'already has the lessons hooks'}`);
  return 0;
}
