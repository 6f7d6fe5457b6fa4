/** Where the hooks would find the `lessons` binary, looked up the way their commands look it up. */
import path from 'node:path';
import { isExecutableFile } from '../io/paths.js';

/** `name` in the directories of a PATH value, as `command -v` finds it; undefined when absent. */
export function findOnPath(name: string, pathValue: string | undefined): string | undefined {
  if (name.includes('/')) return isExecutableFile(name) ? name : undefined;
  for (const dir of (pathValue ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, name);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}

/** The project's node_modules/.bin/lessons, else `lessons` on PATH: what the git and agent hooks run. */
export function hookBinary(root: string, pathValue: string | undefined): string | undefined {
  const local = path.join(root, 'node_modules/.bin/lessons');
  return isExecutableFile(local) ? local : findOnPath('lessons', pathValue);
}

/**
 * PATH as a harness or git sees it: without the node_modules/.bin folders that `npm run` and
 * `npx` put in front while `lessons doctor` itself runs through them.
 */
export function withoutNpmBins(pathValue: string | undefined): string {
  return (pathValue ?? '')
    .split(path.delimiter)
    .filter((dir) => !/(^|[\\/])node_modules[\\/]\.bin[\\/]?$/.test(dir))
    .join(path.delimiter);
}
