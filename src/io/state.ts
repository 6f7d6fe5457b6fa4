import fs from 'node:fs';
import path from 'node:path';
import { writeInRepo } from './fs.js';
import { pathInside } from './inside.js';
import { STATE_DIR } from './repo.js';

/**
 * The repository's local state folder (.lessons/), created on first use with a .gitignore
 * of `*`, so receipts, caches and guard artifacts never get committed by accident.
 */
export function ensureStateDir(root: string): string {
  // Checked every time, not only when the .gitignore is missing: a committed .lessons link to a folder that has one leads outside too.
  pathInside(root, STATE_DIR, 'the state folder');
  const dir = path.join(root, STATE_DIR);
  const ignore = path.join(dir, '.gitignore');
  if (!fs.existsSync(ignore)) writeInRepo(root, ignore, '*\n');
  return dir;
}
