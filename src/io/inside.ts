/**
 * The one check every write goes through: a path the CLI writes, whatever lesson data or
 * configuration it came from, resolves inside the repository after following symbolic links.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LessonsError } from '../errors.js';

/** True when `target` is `root` or below it; both absolute and already resolved. */
export function isWithin(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** The real path `abs` would have: its nearest existing ancestor resolved, the rest appended. */
function resolveReal(abs: string): string {
  const rest: string[] = [];
  let dir = abs;
  for (;;) {
    try {
      return path.join(fs.realpathSync(dir), ...rest.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      // A dangling link is not a free name: writing through it would create its target.
      if (isSymlink(dir)) return path.resolve(path.dirname(dir), fs.readlinkSync(dir), ...rest.reverse());
    }
    const parent = path.dirname(dir);
    if (parent === dir) return path.join(dir, ...rest.reverse());
    rest.push(path.basename(dir));
    dir = parent;
  }
}

function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The real absolute path of `target` (absolute, or relative to `root`), refused with exit 1
 * when it, or a link on the way to it, leads outside `root`. `what` names the data the path
 * came from, for the message.
 */
export function pathInside(root: string, target: string, what = 'the path'): string {
  const realRoot = fs.realpathSync(root);
  const lexical = path.resolve(root, target);
  const shown = path.isAbsolute(target) ? path.relative(root, target).split(path.sep).join('/') : target;
  if (!isWithin(path.resolve(root), lexical)) {
    throw new LessonsError('REFUSED', `refusing to write ${JSON.stringify(shown)}: ${what} leads outside the repository; fix the data it came from`, 1);
  }
  const real = resolveReal(lexical);
  if (!isWithin(realRoot, real)) {
    throw new LessonsError(
      'REFUSED',
      `refusing to write ${shown}: a symbolic link on its way leads outside the repository; replace the link with a real folder or file`,
      1,
    );
  }
  return real;
}

/** Whether `dir` (absolute) resolves inside `root`; a folder that is not there counts as inside. */
export function resolvesInside(root: string, dir: string): boolean {
  return isWithin(fs.realpathSync(root), resolveReal(dir));
}
