import path from 'node:path';
import { readRegularFile } from './fs.js';
import { INDEX_FILE } from './repo.js';

/** The text of lessons/index.json, or undefined when it cannot be read (absent, a folder, a FIFO, no permission). */
export function readIndexText(root: string): string | undefined {
  try {
    return readRegularFile(path.join(root, INDEX_FILE), 'index').toString('utf8');
  } catch {
    return undefined;
  }
}
