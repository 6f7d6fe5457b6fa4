import path from 'node:path';
import { buildIndex, serializeIndex } from '../index/build.js';
import { GITATTRIBUTES_FILE, MERGE_ATTRIBUTE_LINE, configureMergeDriver, withMergeAttribute } from '../index/merge-driver.js';
import { readText, readTextIfExists, writeInRepo } from '../io/fs.js';
import { listDir, pathExists } from '../io/paths.js';
import { openRepo } from '../io/git/repo.js';
import { INDEX_FILE, LESSONS_DIR, POLICY_FILE, STATE_DIR } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { LEVELS, LEVEL_FOLDERS } from '../lesson/model.js';
import { packageFile } from '../io/package-root.js';
import { compareStrings } from '../util/compare.js';
import { BLOCK_REFERENCES, agentsBlock, upsertAgentsBlock } from './agents-block.js';
import { ciInstallCommand, lessonsCommand, workflowInstall, type CiInstall } from './install.js';
import { WORKFLOW_FILE, workflowRunCommands, workflowYaml, type WorkflowOptions } from './workflow.js';

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
  /** What the pull request that adds these files runs in CI; undefined when init kept a workflow of other content. */
  firstPullRequest?: FirstPullRequest;
  /** How to run lessons here: `npx --no-install lessons` for a dev dependency, else `lessons`. */
  command: string;
}

export interface FirstPullRequest {
  workflow: string;
  /** How the workflow installs lessons, and the `run:` of that step. */
  install: CiInstall['how'];
  installCommand: string;
  /** The lessons commands after it, in order. */
  commands: string[];
  /** The base branch has no policy file: the guard accepts the one this change adds (its policy gate warns). */
  acceptsFirstPolicy: boolean;
  /** The install is `lessons@<version>` from the npm registry, which works once lessons is published there. */
  fromRegistry: boolean;
}

export const AGENTS_FILE = 'AGENTS.md';
const GITIGNORE = '.gitignore';

/** One file `init` may write: its wanted content given what is there. */
interface Planned {
  path: string;
  content: (existing: string | undefined) => { text: string; action: InitEntry['action']; reason?: string };
}

const ALREADY_UP_TO_DATE = 'already up to date';

/** A file init owns outright: written when absent, replaced only with --force. */
function owned(rel: string, wanted: string, force: boolean): Planned {
  return {
    path: rel,
    content: (existing) => {
      if (existing === undefined) return { text: wanted, action: 'created' };
      if (existing === wanted) return { text: existing, action: 'skipped', reason: ALREADY_UP_TO_DATE };
      if (!force) return { text: existing, action: 'skipped', reason: 'exists with other content: kept (use --force to replace it)' };
      return { text: wanted, action: 'updated', reason: 'replaced (--force)' };
    },
  };
}

function plan(root: string, force: boolean, install: CiInstall, workflow: WorkflowOptions): Planned[] {
  const planned: Planned[] = [];
  for (const level of LEVELS) planned.push(owned(`${LESSONS_DIR}/${LEVEL_FOLDERS[level]}/.gitkeep`, '', false));
  const schemas = listDir(packageFile('schemas')).filter((name) => name.endsWith('.schema.json')).sort(compareStrings);
  for (const name of schemas) planned.push(owned(`schemas/${name}`, readText(packageFile('schemas', name)), force));
  planned.push(owned(POLICY_FILE, readText(packageFile(POLICY_FILE)), force));
  for (const rel of BLOCK_REFERENCES) planned.push(owned(rel, readText(packageFile(rel)), force));
  planned.push(owned(WORKFLOW_FILE, workflowYaml(install, workflow), force));
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
      const { text, action } = upsertAgentsBlock(existing, force, agentsBlock(lessonsCommand(root)));
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
export async function initRepo(options: { cwd: string; force: boolean; prComment?: boolean }): Promise<InitResult> {
  const repo = await openRepo(options.cwd);
  const root = repo.topLevel;
  const entries: InitEntry[] = [];
  const install = workflowInstall(root);
  const policyBefore = pathExists(path.join(root, POLICY_FILE));
  const workflow = { prComment: options.prComment === true };
  for (const item of plan(root, options.force, install, workflow)) {
    const file = path.join(root, item.path);
    const existing = readTextIfExists(file);
    const { text, action, reason } = item.content(existing);
    if (action !== 'skipped') writeInRepo(root, file, text);
    entries.push({ path: item.path, action, ...(reason ? { reason } : {}) });
  }
  const workflowKept = entries.some((entry) => entry.path === WORKFLOW_FILE && entry.action === 'skipped' && entry.reason !== ALREADY_UP_TO_DATE);
  const mergeDriver = await configureMergeDriver(repo);
  return { root, entries, mergeDriver, ...(workflowKept ? {} : { firstPullRequest: firstPullRequest(install, workflow, !policyBefore) }), command: lessonsCommand(root) };
}

/** The workflow's steps as the pull request that adds them runs them. */
function firstPullRequest(install: CiInstall, workflow: WorkflowOptions, addsPolicy: boolean): FirstPullRequest {
  const commands = workflowRunCommands(install, workflow).slice(1);
  const fromRegistry = install.how === 'global' && install.fromRegistry;
  return { workflow: WORKFLOW_FILE, install: install.how, installCommand: ciInstallCommand(install), commands, acceptsFirstPolicy: addsPolicy, fromRegistry };
}
