/** Globs over repo-relative paths and commands, as lesson triggers and policy projects write them. */

const GLOB_SPECIAL = /[*?[{]/;

/**
 * A glob as a RegExp matching the whole string. `**` spans path segments, `*` and `?` stay
 * within one (for commands, where `/` is an ordinary character, `*` spans everything),
 * `{a,b}` is either, `[...]` a character class.
 */
export function globToRegExp(glob: string, options: { pathSegments: boolean } = { pathSegments: true }): RegExp {
  const star = options.pathSegments ? '[^/]*' : '.*';
  const one = options.pathSegments ? '[^/]' : '.';
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        i++;
        if (atStart && glob[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else if (glob[i - 2] === '/' && i === glob.length - 1) {
          out = out.slice(0, -1) + '(?:/.*)?';
        } else out += '.*';
      } else out += star;
    } else if (c === '?') out += one;
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) out += '\\[';
      else {
        const body = glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = close;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else out += c.replace(/[.+^$()|\\\]}]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

const cache = new Map<string, RegExp>();

/** A glob compiled once per process (`pathSegments` false for commands, where `/` is ordinary). */
export function compiledGlob(glob: string, pathSegments: boolean): RegExp {
  const key = `${pathSegments ? 'p' : 'c'}${glob}`;
  let re = cache.get(key);
  if (!re) cache.set(key, (re = globToRegExp(glob, { pathSegments })));
  return re;
}

/** A path glob without a `/` matches the file name in any folder, as in .gitignore. */
export function pathMatches(glob: string, file: string): boolean {
  const target = glob.includes('/') ? file : file.slice(file.lastIndexOf('/') + 1);
  if (compiledGlob(glob, true).test(target)) return true;
  // A --path that is itself a glob matches a trigger it would select (`src/**` vs `src/a/**`).
  return GLOB_SPECIAL.test(file) && compiledGlob(file, true).test(glob.replace(/^\*\*\//, ''));
}

/**
 * Whether a path glob matches any of many files: `files.some((file) => pathMatches(glob, file))`
 * with the glob compiled once and each file's name cut once, for a glob asked of a whole
 * repository's files (report's drift).
 */
export function pathsMatcher(files: readonly string[]): (glob: string) => boolean {
  const names = files.map((file) => file.slice(file.lastIndexOf('/') + 1));
  // Files whose own path is a glob (rare): pathMatches also asks whether they would select the trigger.
  const globby = files.filter((file) => GLOB_SPECIAL.test(file));
  return (glob) => {
    const re = compiledGlob(glob, true);
    const targets = glob.includes('/') ? files : names;
    for (let i = 0; i < targets.length; i++) if (re.test(targets[i]!)) return true;
    if (globby.length === 0) return false;
    const bare = glob.replace(/^\*\*\//, '');
    return globby.some((file) => compiledGlob(file, true).test(bare));
  };
}
