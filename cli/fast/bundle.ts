import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { statIdentity, writeInRepo } from '../../src/io/fs.js';
import { pathInside } from '../../src/io/inside.js';
import { lessonsRootAbove, STATE_DIR } from '../../src/io/repo.js';
import { ensureStateDir } from '../../src/io/state.js';
import { packageFile } from '../../src/io/package-root.js';
import type { FastCommand } from '../command.js';

/**
 * The commands that skip yargs each run from a bundle of their own (dist/fast/<name>.cjs, made
 * from its declaration, cli/commands/<name>.ts, by scripts/build-bundles.mjs), compiled with V8's code cache: loaded one module at a time, a
 * command such as capture or guard spent 50-90 ms of every run in Node's ESM loader. A run runs
 * most of its code once, so compiling it (each function the first time it is called) costs about
 * as much as running it; the cache holds the bytecode of every function a run compiled, and the
 * next run starts from it. Node 20 has no compile cache of its own for modules
 * (module.enableCompileCache came in 22), so the bundle is a classic script compiled through
 * vm.Script with `cachedData`.
 *
 * The cache lives in the repository's .lessons/cache/code/, one file per bundle: a header line,
 * then V8's data (twice: encodeCodeCache). It is believed only when everything it was made from
 * is the same: this format, Node's version and architecture, the bundle file (size, mtime,
 * ctime and inode: a reinstall or rebuild changes the ctime), and when the file is whole (its
 * length, and both copies equal) and owned by this user. The ctime, to the nanosecond, is what
 * no one can know in advance, so a cache committed to a repository, or copied from another
 * machine, never matches. V8 checks its own version, flags and the source's length too, and
 * says when it rejects the data. Anything that does not match is ignored and rewritten after
 * the run; a cache that cannot be read or written only costs the compile.
 */

/** The commands with a bundle: the words cli/lessons.ts runs without yargs. */
export const BUNDLED_COMMANDS = ['capture', 'guard', 'hook', 'hooks', 'index', 'lint', 'preflight', 'report'] as const;
export type BundledCommand = (typeof BUNDLED_COMMANDS)[number];

export function isBundledCommand(word: string | undefined): word is BundledCommand {
  return (BUNDLED_COMMANDS as readonly (string | undefined)[]).includes(word);
}

const FORMAT = 1;
export const CODE_CACHE_DIR = `${STATE_DIR}/cache/code`;
/** The header line is padded to a multiple of this, so V8's data starts aligned. */
const ALIGN = 8;

/** The CommonJS wrapper: the same bytes on every run, or V8 rejects the cache (it checks the source). */
const WRAP_START = '(function (exports, require, module, __filename, __dirname) {';
const WRAP_END = '\n})';

/** What a cache was made from; it is used only by the same. */
interface Made {
  format: number;
  node: string;
  arch: string;
  /** The bundle file's stat identity. */
  bundle: string;
}

interface Header extends Made {
  /** The length of V8's data. */
  bytes: number;
  /**
   * The runs whose functions the data holds (`hook claude PreToolUse`, `preflight`): a run of
   * another kind compiles its own code and writes the cache again, with both.
   */
  runs: string[];
}

function madeFrom(bundle: fs.BigIntStats): Made {
  return { format: FORMAT, node: process.version, arch: process.arch, bundle: statIdentity(bundle) };
}

/**
 * The cache file's bytes: the header as one JSON line padded to ALIGN, then V8's data twice.
 * The two copies must be equal: a damaged file is found by one native comparison, where a
 * checksum computed in JavaScript cost more than the rest of the loader.
 */
export function encodeCodeCache(header: Header, data: Uint8Array): Buffer {
  const line = JSON.stringify(header);
  const length = Math.ceil((line.length + 1) / ALIGN) * ALIGN;
  const pad = (ALIGN - (data.length % ALIGN)) % ALIGN;
  return Buffer.concat([Buffer.from(`${line.padEnd(length - 1)}\n`), data, Buffer.alloc(pad), data]);
}

/**
 * V8's data from a cache file's bytes and the runs it holds, when the header says it was made
 * from exactly this bundle by this Node and both copies agree; undefined otherwise.
 */
export function decodeCodeCache(bytes: Buffer, bundle: fs.BigIntStats): { data: Buffer; runs: string[] } | undefined {
  const end = bytes.indexOf(10);
  if (end < 0 || (end + 1) % ALIGN !== 0) return undefined;
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, end)) as Header;
  } catch {
    return undefined;
  }
  for (const [key, value] of Object.entries(madeFrom(bundle))) if (header[key as keyof Made] !== value) return undefined;
  const first = end + 1;
  const second = first + Math.ceil(header.bytes / ALIGN) * ALIGN;
  if (!Number.isInteger(header.bytes) || second + header.bytes !== bytes.length || !Array.isArray(header.runs)) return undefined;
  const data = bytes.subarray(first, first + header.bytes);
  return data.equals(bytes.subarray(second)) ? { data, runs: header.runs.filter((run) => typeof run === 'string') } : undefined;
}

/** What kind of run this is, for the cache's `runs`: the command and its words (`hook claude PreToolUse`), without options. */
export function runKind(args: readonly string[]): string {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-C') i++;
    else if (!args[i]!.startsWith('-')) words.push(args[i]!);
  }
  // preflight's words are the task: one kind whatever the task says.
  return words[0] === 'hook' ? words.slice(0, 3).join(' ') : (words[0] ?? '');
}

/** The repository whose .lessons/ holds the cache: the one the command runs in (`-C`, else the working directory). */
function cacheRoot(args: readonly string[]): string | undefined {
  const at = args.indexOf('-C');
  return lessonsRootAbove(at >= 0 && args[at + 1] !== undefined ? path.resolve(args[at + 1]!) : process.cwd());
}

function readCache(root: string | undefined, name: string, bundle: fs.BigIntStats): ReturnType<typeof decodeCodeCache> {
  if (root === undefined) return undefined;
  try {
    // A .lessons/ linked out of the repository is neither read nor written.
    const file = pathInside(root, `${CODE_CACHE_DIR}/${name}`);
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile() || (process.getuid !== undefined && stat.uid !== process.getuid())) return undefined;
      return decodeCodeCache(fs.readFileSync(fd), bundle);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * The fast command in dist/fast/<name>.cjs, compiled with the repository's code cache; its run
 * writes the cache afterwards when there was none that fit, or none that held a run of its
 * kind (the first hook of a session is SessionStart, the next ones mostly PreToolUse). Undefined
 * when the bundle is not built (a source checkout): the caller loads the modules one by one instead.
 */
export function bundledCommand(name: BundledCommand, args: readonly string[], load: NodeJS.Require): FastCommand | undefined {
  const file = packageFile('dist', 'fast', `${name}.cjs`);
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  let source: string;
  let bundle: fs.BigIntStats;
  try {
    bundle = fs.fstatSync(fd, { bigint: true });
    source = fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
  const root = cacheRoot(args);
  const cacheName = `${name}.bin`;
  const cached = readCache(root, cacheName, bundle);
  const script = new vm.Script(`${WRAP_START}${source}${WRAP_END}`, {
    filename: file,
    ...(cached ? { cachedData: cached.data } : {}),
  });
  const module = { exports: {} as { default: Required<Pick<FastCommand, 'run'>> & FastCommand } };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, load, module, file, path.dirname(file));
  const command = module.exports.default;
  const kind = runKind(args);
  // V8 keeps what it read from the cache compiled, so a cache written again holds both runs' functions.
  const runs = cached && script.cachedDataRejected !== true ? cached.runs : [];
  return {
    run: async (argv) => {
      // Code compiled from the cache cannot call import() on Node 20 (V8 11 drops the script's
      // host options when it deserializes), so the bundle's one import() (preflight --rerank) is ours.
      const code = await command.run(argv, (url) => import(url));
      // A run that did one-off work (rebuilt the search cache) would put its code in every later run's cache: the next one saves it.
      if (!runs.includes(kind) && root !== undefined && command.cacheable?.() !== false) saveCache(root, cacheName, bundle, script, [...runs, kind].sort());
      return code;
    },
  };
}

/** After a run, so the cache holds every function the run compiled. Never fails the command: an unwritten cache only costs the compile next time. */
function saveCache(root: string, name: string, bundle: fs.BigIntStats, script: vm.Script, runs: string[]): void {
  try {
    pathInside(root, `${CODE_CACHE_DIR}/${name}`);
    ensureStateDir(root);
    const data = script.createCachedData();
    // Durable: a cache is bytecode; after a crash it is the old file or the whole new one.
    writeInRepo(root, `${CODE_CACHE_DIR}/${name}`, encodeCodeCache({ ...madeFrom(bundle), bytes: data.length, runs }, data));
  } catch {
    // Not writable (a read-only checkout, a full disk): compile again next time.
  }
}
