/**
 * How lessons/index.json merges. The committed `.gitattributes` says `merge=union`, a driver
 * built into git that GitHub's merge button and every clone honour without any config: a merge
 * of two lesson branches never stops on the index. Union is exact where the two sides changed
 * lines apart from each other; where they touched neighbouring lines it keeps both sides' lines,
 * which leaves ids out of order or repeated (or, at the end, not JSON): readers take such an
 * index for stale and scan the lesson files, and `lessons index --check` fails until `lessons
 * index` rewrites it (docs/index-merge.md). A clone where `lessons init` or `lessons hooks
 * install` ran routes the file to the exact `lessons-index` driver instead, through its own
 * `.git/info/attributes` (which wins over `.gitattributes`) and its git config (git keeps driver
 * commands out of committed files).
 */
import path from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../io/fs.js';
import { configValue, gitPath, openRepo, removeConfigSection, setConfigValue, type GitRepo } from '../io/git/repo.js';
import { INDEX_FILE } from '../io/repo.js';

export const MERGE_DRIVER = 'lessons-index';
export const GITATTRIBUTES_FILE = '.gitattributes';
/** The committed line: git's own union merge, for clones and merge buttons without the driver. */
export const MERGE_ATTRIBUTE_LINE = `${INDEX_FILE} merge=union`;
/** The clone's line in .git/info/attributes: the exact driver, where its config is set. */
export const DRIVER_ATTRIBUTE_LINE = `${INDEX_FILE} merge=${MERGE_DRIVER}`;
const CLONE_ATTRIBUTES = 'info/attributes';

/**
 * Git runs a merge driver with `sh` at the top of the working tree. Like the git hooks, it
 * prefers the project's own install to one on PATH.
 */
export const MERGE_DRIVER_COMMAND = 'f=node_modules/.bin/lessons; [ -x "$f" ] || f=lessons; "$f" index --merge %O %A %B %P';

const DRIVER_NAME = 'lessons/index.json: three-way merge by lesson (lessons index --merge)';

const INDEX_MERGE_LINE = new RegExp(`^/?${INDEX_FILE.replace(/[.]/g, '\\.')}\\s.*\\bmerge=(\\S+)`);

/** An attributes text with `line` appended. */
function appended(text: string, line: string): string {
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  return `${text}${separator}${line}\n`;
}

/**
 * `.gitattributes` with the union line, or undefined when lessons/index.json already has a merge
 * attribute of the team's choosing. The driver's line that earlier versions committed becomes
 * the union line: without the clone's config it made git merge the file as plain text.
 */
export function withMergeAttribute(existing: string | undefined): string | undefined {
  const lines = (existing ?? '').split('\n');
  const at = lines.findIndex((line) => INDEX_MERGE_LINE.test(line.trim()));
  if (at === -1) return appended(existing ?? '', MERGE_ATTRIBUTE_LINE);
  if (INDEX_MERGE_LINE.exec(lines[at]!.trim())![1] !== MERGE_DRIVER) return undefined;
  lines[at] = MERGE_ATTRIBUTE_LINE;
  return lines.join('\n');
}

/** The clone's attributes with the driver's line, or undefined when it is there. */
export function withDriverAttribute(existing: string | undefined): string | undefined {
  if ((existing ?? '').split('\n').some((line) => line.trim() === DRIVER_ATTRIBUTE_LINE)) return undefined;
  return appended(existing ?? '', DRIVER_ATTRIBUTE_LINE);
}

export interface MergeDriverResult {
  /** What happened to .gitattributes: the union line added, the driver's old line replaced by it, or a merge attribute there already. */
  attributes: 'added' | 'updated' | 'present';
  /** What happened to the clone's git config and .git/info/attributes. */
  config: 'set' | 'unchanged';
}

/** Sets this clone's driver: `merge.lessons-index.*` in .git/config and its line in .git/info/attributes. */
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
  const file = await gitPath(repo, CLONE_ATTRIBUTES);
  const attributes = withDriverAttribute(readTextIfExists(file));
  if (attributes !== undefined) {
    writeFileAtomic(file, attributes);
    config = 'set';
  }
  return config;
}

/** Writes the committed attribute (when missing) and this clone's driver. */
export async function installMergeDriver(options: { cwd: string }): Promise<MergeDriverResult> {
  const repo = await openRepo(options.cwd);
  const file = path.join(repo.topLevel, GITATTRIBUTES_FILE);
  const existing = readTextIfExists(file);
  const attributes = withMergeAttribute(existing);
  if (attributes !== undefined) writeFileAtomic(file, attributes);
  return { attributes: attributes === undefined ? 'present' : existing !== undefined && existing.includes(DRIVER_ATTRIBUTE_LINE) ? 'updated' : 'added', config: await configureMergeDriver(repo) };
}

/** Removes this clone's driver (config and attribute line); the committed union line stays. */
export async function uninstallMergeDriver(options: { cwd: string }): Promise<boolean> {
  const repo = await openRepo(options.cwd);
  const file = await gitPath(repo, CLONE_ATTRIBUTES);
  const existing = readTextIfExists(file);
  const kept = existing?.split('\n').filter((line) => line.trim() !== DRIVER_ATTRIBUTE_LINE);
  if (existing !== undefined && kept!.length !== existing.split('\n').length) writeFileAtomic(file, kept!.join('\n'));
  return removeConfigSection(repo, `merge.${MERGE_DRIVER}`);
}
