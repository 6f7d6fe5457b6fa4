import path from 'node:path';
import { buildIndex, serializeIndex } from '../index/build.js';
import { GITATTRIBUTES_FILE, MERGE_ATTRIBUTE_LINE, configureMergeDriver, withMergeAttribute } from '../index/merge-driver.js';
import { readText, readTextIfExists, writeInRepo } from '../io/fs.js';
import { listDir } from '../io/paths.js';
import { openRepo } from '../io/git/repo.js';
import { INDEX_FILE, LESSONS_DIR, POLICY_FILE, STATE_DIR } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { LEVELS, LEVEL_FOLDERS } from '../lesson/model.js';
import { packageFile, packageVersion } from '../io/package-root.js';
import { compareStrings } from '../util/compare.js';
import { BLOCK_REFERENCES, upsertAgentsBlock } from './agents-block.js';
import { WORKFLOW_FILE, workflowYaml } from './workflow.js';

export interface InitEntry {
  path: string;
  action: 'created' | 'updated' | 'skipped';
  /** Why it was skipped or what changed. */
  reason?: string;
}

export interface InitResult {
  root: string;
  entries: InitEntry[];
  /** This clone's `merge.lessons-index` driver config (the `.gitattributes` line is an entry). */
  mergeDriver: 'set' | 'unchanged';
}

export const AGENTS_FILE = 'AGENTS.md';
const GITIGNORE = '.gitignore';

/** One file `init` may write: its wanted content given what is there. */
interface Planned {
  path: string;
  content: (existing: string | undefined) => { text: string; action: InitEntry['action']; reason?: string };
}

/** A file init owns outright: written when absent, replaced only with --force. */
function owned(rel: string, wanted: string, force: boolean): Planned {
  return {
    path: rel,
    content: (existing) => {
      if (existing === undefined) return { text: wanted, action: 'created' };
      if (existing === wanted) return { text: existing, action: 'skipped', reason: 'already up to date' };
      if (!force) return { text: existing, action: 'skipped', reason: 'exists with other content: kept (use --force to replace it)' };
      return { text: wanted, action: 'updated', reason: 'replaced (--force)' };
    },
  };
}

function lessonsInPackageJson(root: string): boolean {
  const text = readTextIfExists(path.join(root, 'package.json'));
  if (text === undefined) return false;
  try {
    const manifest = JSON.parse(text) as Record<string, Record<string, unknown> | undefined>;
    return ['dependencies', 'devDependencies'].some((key) => manifest[key]?.lessons !== undefined);
  } catch {
    return false;
  }
}

function plan(root: string, force: boolean): Planned[] {
  const planned: Planned[] = [];
  for (const level of LEVELS) planned.push(owned(`${LESSONS_DIR}/${LEVEL_FOLDERS[level]}/.gitkeep`, '', false));
  const schemas = listDir(packageFile('schemas')).filter((name) => name.endsWith('.schema.json')).sort(compareStrings);
  for (const name of schemas) planned.push(owned(`schemas/${name}`, readText(packageFile('schemas', name)), force));
  planned.push(owned(POLICY_FILE, readText(packageFile(POLICY_FILE)), force));
  for (const rel of BLOCK_REFERENCES) planned.push(owned(rel, readText(packageFile(rel)), force));
  planned.push(owned(WORKFLOW_FILE, workflowYaml({ inPackageJson: lessonsInPackageJson(root), version: packageVersion() }), force));
  planned.push({
    path: GITIGNORE,
    content: (existing) => {
      const lines = (existing ?? '').split('\n').map((line) => line.trim());
      if (lines.includes(`${STATE_DIR}/`) || lines.includes(STATE_DIR) || lines.includes(`/${STATE_DIR}/`)) {
        return { text: existing!, action: 'skipped', reason: `already ignores ${STATE_DIR}/` };
      }
      if (existing === undefined) return { text: `${STATE_DIR}/\n`, action: 'created' };
      const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
      return { text: `${existing}${separator}${STATE_DIR}/\n`, action: 'updated', reason: `added ${STATE_DIR}/` };
    },
  });
  planned.push({
    path: GITATTRIBUTES_FILE,
    content: (existing) => {
      const text = withMergeAttribute(existing);
      if (text === undefined) return { text: existing!, action: 'skipped', reason: `${INDEX_FILE} already has a merge attribute` };
      return { text, action: existing === undefined ? 'created' : 'updated', ...(existing === undefined ? {} : { reason: `${MERGE_ATTRIBUTE_LINE} (merges without per-clone setup)` }) };
    },
  });
  planned.push({
    path: INDEX_FILE,
    content: (existing) => {
      if (existing !== undefined) return { text: existing, action: 'skipped', reason: 'exists (`lessons index` rebuilds it)' };
      return { text: serializeIndex(buildIndex(loadLessons(root).lessons)), action: 'created' };
    },
  });
  planned.push({
    path: AGENTS_FILE,
    content: (existing) => {
      const { text, action } = upsertAgentsBlock(existing, force);
      if (action === 'unchanged') return { text, action: 'skipped', reason: 'the lessons block is up to date' };
      if (action === 'differs') return { text, action: 'skipped', reason: 'the lessons block was changed by hand: kept (use --force to replace the block)' };
      return { text, action, ...(action === 'updated' ? { reason: 'lessons block written; the rest kept' } : {}) };
    },
  });
  return planned;
}

/**
 * Turns a git repository into a lessons repository (SPEC §2). Idempotent: a second run
 * skips everything; nothing is overwritten without `force`, and every write is atomic.
 */
export async function initRepo(options: { cwd: string; force: boolean }): Promise<InitResult> {
  const repo = await openRepo(options.cwd);
  const root = repo.topLevel;
  const entries: InitEntry[] = [];
  for (const item of plan(root, options.force)) {
    const file = path.join(root, item.path);
    const existing = readTextIfExists(file);
    const { text, action, reason } = item.content(existing);
    if (action !== 'skipped') writeInRepo(root, file, text);
    entries.push({ path: item.path, action, ...(reason ? { reason } : {}) });
  }
  return { root, entries, mergeDriver: await configureMergeDriver(repo) };
}
