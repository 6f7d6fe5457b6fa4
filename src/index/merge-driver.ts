/**
 * The `lessons-index` merge driver: `.gitattributes` routes lessons/index.json to it, and each
 * clone's git config says which command runs it (git keeps drivers out of committed files).
 * `lessons init` and `lessons hooks install` set both up.
 */
import path from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../io/fs.js';
import { configValue, openRepo, removeConfigSection, setConfigValue, type GitRepo } from '../io/git/repo.js';
import { INDEX_FILE } from '../io/repo.js';

export const MERGE_DRIVER = 'lessons-index';
export const GITATTRIBUTES_FILE = '.gitattributes';
export const MERGE_ATTRIBUTE_LINE = `${INDEX_FILE} merge=${MERGE_DRIVER}`;

/**
 * Git runs a merge driver with `sh` at the top of the working tree. Like the git hooks, it
 * prefers the project's own install to one on PATH.
 */
export const MERGE_DRIVER_COMMAND = 'f=node_modules/.bin/lessons; [ -x "$f" ] || f=lessons; "$f" index --merge %O %A %B %P';

const DRIVER_NAME = 'lessons/index.json: three-way merge by lesson (lessons index --merge)';

/** `.gitattributes` with the driver's line, or undefined when lessons/index.json already has a merge attribute. */
export function withMergeAttribute(existing: string | undefined): string | undefined {
  const lines = (existing ?? '').split('\n');
  const pattern = new RegExp(`^/?${INDEX_FILE.replace(/[.]/g, '\\.')}\\s.*\\bmerge=`);
  if (lines.some((line) => pattern.test(line.trim()))) return undefined;
  const text = existing ?? '';
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  return `${text}${separator}${MERGE_ATTRIBUTE_LINE}\n`;
}

export interface MergeDriverResult {
  /** What happened to .gitattributes: the line added, or there already. */
  attributes: 'added' | 'present';
  /** What happened to the clone's git config. */
  config: 'set' | 'unchanged';
}

/** Sets this clone's driver config (`merge.lessons-index.*` in .git/config). */
export async function configureMergeDriver(repo: GitRepo): Promise<MergeDriverResult['config']> {
  const wanted: [string, string][] = [
    [`merge.${MERGE_DRIVER}.name`, DRIVER_NAME],
    [`merge.${MERGE_DRIVER}.driver`, MERGE_DRIVER_COMMAND],
  ];
  let config: MergeDriverResult['config'] = 'unchanged';
  for (const [key, value] of wanted) {
    if ((await configValue(repo, key)) === value) continue;
    await setConfigValue(repo, key, value);
    config = 'set';
  }
  return config;
}

/** Writes the attribute (when missing) and this clone's driver config. */
export async function installMergeDriver(options: { cwd: string }): Promise<MergeDriverResult> {
  const repo = await openRepo(options.cwd);
  const file = path.join(repo.topLevel, GITATTRIBUTES_FILE);
  const attributes = withMergeAttribute(readTextIfExists(file));
  if (attributes !== undefined) writeFileAtomic(file, attributes);
  return { attributes: attributes === undefined ? 'present' : 'added', config: await configureMergeDriver(repo) };
}

/** Removes this clone's driver config; the committed attribute stays (without a driver git merges the file as text). */
export async function uninstallMergeDriver(options: { cwd: string }): Promise<boolean> {
  return removeConfigSection(await openRepo(options.cwd), `merge.${MERGE_DRIVER}`);
}
