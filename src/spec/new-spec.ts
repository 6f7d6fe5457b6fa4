import path from 'node:path';
import { LessonsError, UsageError } from '../errors.js';
import { createInRepo, toPosixRelative } from '../io/fs.js';
import { pathExists, removeIfExists } from '../io/paths.js';
import { findRepoRoot } from '../io/repo.js';
import { slugify } from '../lifecycle/new.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { selectForRequest } from '../preflight/preflight.js';
import { SPEC_DOCUMENTS, specDocuments } from './documents.js';

export const SPECS_DIR = 'specs';

export interface SpecResult {
  dir: string;
  files: string[];
  /** The lessons preflight selected for the feature, by id. */
  lessons: string[];
}

/**
 * `lessons spec new "<feature>"`: writes specs/<feature>/{requirements,design,tasks}.md,
 * pre-filled with the lessons preflight selects for the feature. Refuses, writing nothing,
 * when any of them exists.
 */
export async function newSpec(options: { cwd: string; feature: string; now: Date }): Promise<SpecResult> {
  const feature = options.feature.replace(/\s+/g, ' ').trim();
  if (!/[\p{L}\p{N}]/u.test(feature)) throw new UsageError('the feature is empty: lessons spec new "<feature>"');
  const root = findRepoRoot(options.cwd);
  const dir = path.join(root, SPECS_DIR, slugify(feature));
  const files = SPEC_DOCUMENTS.map((name) => path.join(dir, `${name}.md`));
  const existing = files.filter((file) => pathExists(file)).map((file) => toPosixRelative(root, file));
  if (existing.length > 0) {
    throw new LessonsError('REFUSED', `${existing.join(', ')} already ${existing.length === 1 ? 'exists' : 'exist'}: edit ${existing.length === 1 ? 'it' : 'them'}, or give the feature another name; nothing was written`, 1);
  }
  const selected = await selectForRequest(root, { task: feature, policy: loadPolicy(root), now: options.now });
  const documents = specDocuments(feature, selected);
  const written: string[] = [];
  try {
    for (const name of SPEC_DOCUMENTS) {
      const file = path.join(dir, `${name}.md`);
      createInRepo(root, file, documents[name]);
      written.push(file);
    }
  } catch (error) {
    // All three or none: a half-written spec would pass for a finished one.
    for (const file of written) removeIfExists(file);
    throw new LessonsError('IO', `cannot write the spec under ${toPosixRelative(root, dir)}: ${(error as Error).message}; nothing was written`);
  }
  return { dir: toPosixRelative(root, dir), files: written.map((file) => toPosixRelative(root, file)), lessons: selected.map((lesson) => lesson.id) };
}
