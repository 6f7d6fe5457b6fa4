import path from 'node:path';
import { LessonsError } from '../errors.js';
import { readTextIfExists, writeInRepo } from '../io/fs.js';
import { formatJson } from '../util/json.js';

export interface SettingsResult {
  /** Repo-relative POSIX path of the settings file. */
  path: string;
  changed: boolean;
}

/**
 * Merges into a harness's JSON settings file (`rel`, under `root`): reads it (missing or empty
 * is `{}`), applies `merge`, and writes it back atomically only when the bytes change. A file
 * that is not a JSON object is refused with nothing written: it is never clobbered. With
 * `create: false` a missing file stays missing (uninstall).
 */
export function mergeSettingsFile(
  root: string,
  rel: string,
  merge: (settings: Record<string, unknown>) => Record<string, unknown>,
  options: { create?: boolean } = {},
): SettingsResult {
  const file = path.join(root, rel);
  let before: string | undefined;
  try {
    before = readTextIfExists(file);
  } catch (error) {
    throw new LessonsError('IO', `cannot read ${rel}: ${(error as Error).message}`);
  }
  if (before === undefined && options.create === false) return { path: rel, changed: false };
  let settings: unknown = {};
  if (before !== undefined && before.trim() !== '') {
    try {
      settings = JSON.parse(before);
    } catch (error) {
      throw new LessonsError('INVALID_CONFIG', `${rel} is not valid JSON (${(error as Error).message}); fix it, then run again: nothing was written`);
    }
  }
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    throw new LessonsError('INVALID_CONFIG', `${rel} is not a JSON object; fix it, then run again: nothing was written`);
  }
  const after = formatJson(merge(settings as Record<string, unknown>));
  if (after === before) return { path: rel, changed: false };
  writeInRepo(root, file, after);
  return { path: rel, changed: true };
}
