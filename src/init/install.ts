/**
 * How a repository gets `lessons`, and how its files call it. lessons is not on the npm registry
 * yet: it installs from its git repository (`prepare` builds it), as a dev dependency, globally,
 * or through npx. The hints name that path with the URL left to the reader, since the CLI cannot
 * know where its repository is hosted; the README has the whole command.
 */
import path from 'node:path';
import { readTextIfExists } from '../io/fs.js';
import { packageRoot, packageVersion } from '../io/package-root.js';
import { pathExists } from '../io/paths.js';

/** The install commands every hint names (README: Install). */
export const DEV_INSTALL_COMMAND = 'npm install -D <git URL of lessons>#<tag or commit>';
/**
 * Globally in two steps: npm does not install a git dependency's devDependencies for `prepare`
 * under `--global` (npm/cli#8440), so `npm pack` builds it and the tarball is installed.
 */
export const GLOBAL_INSTALL_COMMAND = 'npm install -g "$(npm pack <git URL of lessons>#<tag or commit> | tail -n 1)"';
export const INSTALL_HINT = `install it with \`${DEV_INSTALL_COMMAND}\` (or globally, \`${GLOBAL_INSTALL_COMMAND}\`)`;

/** How a project's own install runs `lessons`: from node_modules/.bin, which is not on PATH. */
export const PROJECT_BIN = 'npx --no-install lessons';

/** The lockfiles `npm ci` installs from. */
export const NPM_LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json'] as const;

/** The `lessons` entry of package.json's dependencies or devDependencies; undefined when neither has one. */
export function lessonsDependencySpec(root: string): string | undefined {
  const text = readTextIfExists(path.join(root, 'package.json'));
  if (text === undefined) return undefined;
  try {
    const manifest = JSON.parse(text) as Record<string, Record<string, unknown> | undefined>;
    for (const key of ['devDependencies', 'dependencies']) {
      const spec = manifest[key]?.lessons;
      if (typeof spec === 'string') return spec;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The command a repository's files (workflow, AGENTS.md) run lessons with: the project's install when it has one. */
export function lessonsCommand(root: string): string {
  return lessonsDependencySpec(root) === undefined ? 'lessons' : PROJECT_BIN;
}

export function npmLockfile(root: string): string | undefined {
  return NPM_LOCKFILES.find((name) => pathExists(path.join(root, name)));
}

/**
 * How CI installs lessons in this repository:
 * - `npm-ci`: package.json depends on lessons and a lockfile pins it;
 * - `no-save`: it depends on lessons without a lockfile (`npm ci` fails there), so the dependency
 *   spec of package.json is installed, with the project's other dependencies, writing nothing;
 * - `global`: the project does not depend on lessons: `spec` is what installed the lessons that
 *   runs now, when a CI runner can fetch it (runningInstallSpec), else `lessons@<version>`,
 *   which works once lessons is on the npm registry.
 */
export type CiInstall =
  | { how: 'npm-ci'; lockfile: string }
  | { how: 'no-save'; spec: string }
  | { how: 'global'; spec: string; fromRegistry: boolean };

export function ciInstall(root: string, running: { version: string; spec: string | undefined }): CiInstall {
  const dependency = lessonsDependencySpec(root);
  if (dependency !== undefined) {
    const lockfile = npmLockfile(root);
    return lockfile ? { how: 'npm-ci', lockfile } : { how: 'no-save', spec: `lessons@${dependency}` };
  }
  return running.spec ? { how: 'global', spec: running.spec, fromRegistry: false } : { how: 'global', spec: `lessons@${running.version}`, fromRegistry: true };
}

/** How CI installs lessons in the repository at `root`, given the lessons that runs now. */
export function workflowInstall(root: string): CiInstall {
  const version = packageVersion();
  return ciInstall(root, { version, spec: runningInstallSpec(packageRoot(), version) });
}

/** The shell command of a CI install. */
export function ciInstallCommand(install: CiInstall): string {
  if (install.how === 'npm-ci') return 'npm ci';
  const spec = shellWord(install.spec);
  return install.how === 'no-save' ? `npm install --no-save ${spec}` : `npm install --global ${spec}`;
}

/** A word for sh: as it is when it holds nothing sh reads specially (`#` only starts a comment at a word's start), else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./^~-][\w@%+=:,./^~#-]*$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `text` for the inside of a double-quoted sh string: printed as it is, nothing run. */
export function inDoubleQuotes(text: string): string {
  return text.replace(/[\\`"$]/g, (character) => `\\${character}`);
}

/** A URL a CI runner can fetch lessons from: a remote git repository, or a tarball on the npm registry. */
function fetchableSpec(resolved: string, version: string): string | undefined {
  if (/^git\+(https|ssh):\/\//.test(resolved) || /^(github|gitlab|bitbucket):/.test(resolved)) return resolved;
  if (/^https:\/\/registry\.npmjs\.org\/lessons\/-\/lessons-[^/]+\.tgz$/.test(resolved)) return `lessons@${version}`;
  return undefined;
}

/**
 * What installed the lessons that runs now, from the lockfile npm keeps in the node_modules it
 * sits in (a global install's, npx's, a project's): the `resolved` of its entry, pinned to a
 * commit for a git URL. Undefined outside node_modules, and for a local folder, tarball or
 * `git+file:` URL, which a CI runner has not got.
 */
export function runningInstallSpec(packageRoot: string, version: string): string | undefined {
  const modules = path.dirname(packageRoot);
  if (path.basename(modules) !== 'node_modules' || path.basename(packageRoot) !== 'lessons') return undefined;
  const text = readTextIfExists(path.join(modules, '.package-lock.json'));
  if (text === undefined) return undefined;
  try {
    const lock = JSON.parse(text) as { packages?: Record<string, { resolved?: unknown }> };
    const resolved = lock.packages?.['node_modules/lessons']?.resolved;
    return typeof resolved === 'string' ? fetchableSpec(resolved, version) : undefined;
  } catch {
    return undefined;
  }
}
