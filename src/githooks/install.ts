import path from 'node:path';
import { readText, writeFileAtomic } from '../io/fs.js';
import { makeDir, makeExecutable, movePath, pathKind, removeFile } from '../io/paths.js';
import { configValue, hooksDir, openRepo } from '../io/git/repo.js';
import { MANAGED_HOOKS, MANAGED_MARKER, PREVIOUS_SUFFIX, hookScript, type ManagedHook } from './scripts.js';

export type HookAction =
  | 'installed' // there was no hook
  | 'chained' // a hook was there: moved aside and called first
  | 'updated' // ours, rewritten
  | 'unchanged'
  | 'refused' // a foreign hook and a moved-aside one both exist
  | 'removed'
  | 'restored' // ours removed, the moved-aside hook put back
  | 'left-alone' // not ours: uninstall does not touch it
  | 'absent';

export interface HookResult {
  hook: ManagedHook;
  action: HookAction;
  message?: string;
}

export interface HooksResult {
  /** Where git runs hooks from, as an absolute path. */
  dir: string;
  /** core.hooksPath when it is set. */
  hooksPath: string | null;
  hooks: HookResult[];
  /** Notes about the set-up (husky and friends own core.hooksPath). */
  notes: string[];
}

export type HookState = 'lessons' | 'other' | 'absent';

export interface HookStatus {
  hook: ManagedHook;
  state: HookState;
  /** A hook lessons moved aside and calls first. */
  chained: boolean;
}

function readHook(file: string): string | undefined {
  try {
    return readText(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      // A dangling symbolic link is still a hook someone put there.
      return isLink(file) ? '' : undefined;
    }
    throw error;
  }
}

function isLink(file: string): boolean {
  return pathKind(file) === 'symlink';
}

function exists(file: string): boolean {
  return readHook(file) !== undefined;
}

export function isManaged(text: string | undefined): boolean {
  return text !== undefined && text.includes(MANAGED_MARKER);
}

function writeHook(file: string, text: string): void {
  writeFileAtomic(file, text);
  makeExecutable(file);
}

async function locate(cwd: string): Promise<{ dir: string; hooksPath: string | null; notes: string[] }> {
  const repo = await openRepo(cwd);
  const dir = await hooksDir(repo);
  const hooksPath = (await configValue(repo, 'core.hooksPath')) ?? null;
  const notes: string[] = [];
  if (hooksPath !== null && /(^|\/)\.husky(\/|$)/.test(hooksPath)) {
    notes.push(`core.hooksPath is ${hooksPath} (husky): husky may rewrite these hooks; prefer adding \`lessons guard --stage pre-commit\` to .husky/pre-commit (see references/git-hooks.md)`);
  }
  return { dir, hooksPath, notes };
}

function installOne(dir: string, hook: ManagedHook): HookResult {
  const file = path.join(dir, hook);
  const previous = `${file}${PREVIOUS_SUFFIX}`;
  const script = hookScript(hook);
  const current = readHook(file);
  if (current === undefined) {
    writeHook(file, script);
    return { hook, action: 'installed', ...(exists(previous) ? { message: `calls ${hook}${PREVIOUS_SUFFIX} first` } : {}) };
  }
  if (isManaged(current)) {
    if (current === script) return { hook, action: 'unchanged' };
    writeHook(file, script);
    return { hook, action: 'updated' };
  }
  if (exists(previous)) {
    return {
      hook,
      action: 'refused',
      message: `${hook} was not written by lessons and ${hook}${PREVIOUS_SUFFIX} already exists: merge them by hand, or call \`lessons guard\` from your hook (see references/git-hooks.md)`,
    };
  }
  movePath(file, previous);
  writeHook(file, script);
  return { hook, action: 'chained', message: `the existing hook moved to ${hook}${PREVIOUS_SUFFIX}; it runs first` };
}

/** Installs the lessons hooks where git runs hooks from; never overwrites a hook it did not write. */
export async function installHooks(options: { cwd: string }): Promise<HooksResult> {
  const { dir, hooksPath, notes } = await locate(options.cwd);
  makeDir(dir);
  return { dir, hooksPath, notes, hooks: MANAGED_HOOKS.map((hook) => installOne(dir, hook)) };
}

function uninstallOne(dir: string, hook: ManagedHook): HookResult {
  const file = path.join(dir, hook);
  const previous = `${file}${PREVIOUS_SUFFIX}`;
  const current = readHook(file);
  if (current === undefined && exists(previous)) {
    movePath(previous, file);
    return { hook, action: 'restored', message: 'the hook that was there before is back' };
  }
  if (current === undefined) return { hook, action: 'absent' };
  if (!isManaged(current)) return { hook, action: 'left-alone', message: `${hook} was not written by lessons` };
  if (exists(previous)) {
    movePath(previous, file);
    return { hook, action: 'restored', message: 'the hook that was there before is back' };
  }
  removeFile(file);
  return { hook, action: 'removed' };
}

/** Removes the lessons hooks and puts back what install moved aside. */
export async function uninstallHooks(options: { cwd: string }): Promise<HooksResult> {
  const { dir, hooksPath, notes } = await locate(options.cwd);
  return { dir, hooksPath, notes, hooks: MANAGED_HOOKS.map((hook) => uninstallOne(dir, hook)) };
}

export async function hooksStatus(options: { cwd: string }): Promise<{ dir: string; hooksPath: string | null; notes: string[]; hooks: HookStatus[] }> {
  const { dir, hooksPath, notes } = await locate(options.cwd);
  const hooks = MANAGED_HOOKS.map((hook): HookStatus => {
    const current = readHook(path.join(dir, hook));
    const state: HookState = current === undefined ? 'absent' : isManaged(current) ? 'lessons' : 'other';
    return { hook, state, chained: state === 'lessons' && exists(path.join(dir, `${hook}${PREVIOUS_SUFFIX}`)) };
  });
  return { dir, hooksPath, notes, hooks };
}
