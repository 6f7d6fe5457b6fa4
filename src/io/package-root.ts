import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readText } from './fs.js';

let cached: string | undefined;

/** The installed package's own folder (where schemas/ and policy/ ship), from source or from dist. */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && fs.existsSync(path.join(dir, 'schemas'))) return (cached = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('the lessons package is incomplete: schemas/ not found beside package.json');
    dir = parent;
  }
}

export function packageFile(...parts: string[]): string {
  return path.join(packageRoot(), ...parts);
}

/** The installed package's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readText(packageFile('package.json'))) as { version: string }).version;
}
