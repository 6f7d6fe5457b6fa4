import fs from 'node:fs';
import path from 'node:path';
import { INDEX_FILE } from './repo.js';

/** The text of lessons/index.json, or undefined when it cannot be read (absent, a folder, no permission). */
export function readIndexText(root: string): string | undefined {
  try {
    return fs.readFileSync(path.join(root, INDEX_FILE), 'utf8');
  } catch {
    return undefined;
  }
}
