/**
 * The build's second step (after tsc): the `lessons` binary and the hot commands as CommonJS
 * bundles, from tsc's output in dist/.
 *
 * - dist/cli/lessons.cjs, the binary: reads the command word, runs the commands that skip yargs
 *   (preflight, hook, guard, index, capture, ...: BUNDLED_COMMANDS) from their bundles and
 *   hands every other command to dist/cli/lessons.js (ESM, yargs).
 * - dist/fast/<command>.cjs: one file each, so a run loads one file instead of 25 to 200
 *   modules. CommonJS because only a classic script can be compiled with
 *   V8's code cache on Node 20 (cli/fast/bundle.ts), and because its `require`s of Node's own
 *   modules run when the module that needs them first runs, not all at start.
 *
 * Node's own modules are imported as tiny ESM modules that re-export `require(name)` and the
 * names our code imports from it (found in dist/ below): esbuild would otherwise copy every
 * property of `fs` into a fresh object at each of the ~40 places that import it, which cost
 * more than the rest of the start. Most of them are required at their first use (EAGER).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const INJECT = path.join(root, 'scripts/import-meta-url.js');

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(file) : file.endsWith('.js') ? [file] : [];
  });
}

/** For each `node:` module, the names dist/cli and dist/src import from it (static imports, and destructured dynamic ones). */
function importedNames() {
  const names = new Map();
  const add = (module, list) => {
    const set = names.get(module) ?? new Set();
    names.set(module, set);
    for (const part of list.split(',')) {
      const name = part.trim().split(/\s+as\s+|\s*:\s*/)[0];
      if (name) set.add(name);
    }
  };
  for (const file of [...walk(path.join(dist, 'cli')), ...walk(path.join(dist, 'src')), INJECT]) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/import\s+(?:[\w$]+\s*,\s*)?\{([^{}]*)\}\s*from\s*'node:([^']+)'/g)) add(match[2], match[1]);
    for (const match of text.matchAll(/\{([^{}]*)\}\s*=\s*await import\('node:([^']+)'\)/g)) add(match[2], match[1]);
    for (const match of text.matchAll(/(?:from\s*|import\()'node:([^']+)'/g)) add(match[1], '');
  }
  return names;
}

/**
 * Node's modules every run needs, or that Node has loaded before our code runs; the others
 * (crypto, child_process, os, net, ...) cost a few milliseconds each and are required only when
 * something of theirs is first called.
 */
const EAGER = new Set(['fs', 'path', 'url', 'util', 'buffer', 'vm']);

const builtins = {
  name: 'node-builtins',
  setup(context) {
    const names = importedNames();
    // The stand-in's own require(name) is Node's.
    context.onResolve({ filter: /^node:/ }, (args) => (args.namespace === 'node-builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'node-builtin' }));
    context.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => {
      const module = args.path.slice('node:'.length);
      const wanted = [...(names.get(module) ?? [])].sort();
      const name = JSON.stringify(args.path);
      if (EAGER.has(module)) {
        const lines = [`const m = require(${name});`, 'export default m;', ...wanted.map((key) => `export const ${key} = m.${key};`)];
        return { contents: lines.join('\n'), loader: 'js' };
      }
      // Loaded at the first use: what we import from these are functions and classes. A value (os.EOL,
      // worker_threads.parentPort) would come out as a function: import the module's default export and read it there.
      for (const key of wanted) {
        if (typeof requireHere(args.path)[key] !== 'function') throw new Error(`'${key}' of ${args.path} is not a function: a bundle loads ${args.path} at first use, so import the module and read ${key} from it`);
      }
      const lines = [
        'let m;',
        `const load = () => (m ??= require(${name}));`,
        'export default new Proxy({}, { get: (_, key) => load()[key] });',
        ...wanted.map((key) => `export function ${key}(...args) { return new.target ? new (load().${key})(...args) : load().${key}(...args); }`),
      ];
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

/**
 * Packages published only as ES modules (execa): a bundle loads them with require(), which
 * Node (>= 20.19, the engines field) answers with the module's namespace. esbuild's interop
 * would take that whole namespace for the default export, so each is imported through a
 * stand-in that exports the namespace's own names.
 */
const requireHere = createRequire(path.join(root, 'package.json'));
const esmOnly = (name) => {
  try {
    return Object.prototype.toString.call(requireHere(name)) === '[object Module]';
  } catch {
    return false;
  }
};
const esmPackages = {
  name: 'esm-only-packages',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.namespace === 'esm-package') return { path: args.path, external: true };
      return !args.path.startsWith('node:') && esmOnly(args.path) ? { path: args.path, namespace: 'esm-package' } : undefined;
    });
    context.onLoad({ filter: /.*/, namespace: 'esm-package' }, (args) => {
      const name = JSON.stringify(args.path);
      const names = Object.keys(requireHere(args.path)).filter((key) => key !== 'default').sort();
      const lines = [`const m = require(${name});`, 'export default m.default;', ...names.map((key) => `export const ${key} = m.${key};`)];
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  // Fewer bytes to read on every run; names are kept, so a --debug stack trace still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [builtins, esmPackages],
  // import.meta.url in CommonJS: the bundle's own file URL (the loader passes __filename).
  // LESSONS_BUNDLE: what code that runs both as an ES module and in a bundle asks (src/lesson/parse.ts).
  define: { 'import.meta.url': 'import_meta_url', LESSONS_BUNDLE: 'true' },
  inject: [INJECT],
};

// Earlier builds' bundles must not outlive their sources.
fs.rmSync(path.join(dist, 'fast'), { recursive: true, force: true });
const { BUNDLED_COMMANDS } = await import(path.join(dist, 'cli/fast/bundle.js'));
// A bundle's entry is the command's declaration, whose default export runs it (cli/command.ts defineCommand).
const entries = (names) => ({ entryPoints: Object.fromEntries(names.map((name) => [name, path.join(dist, `cli/commands/${name}.js`)])), outdir: path.join(dist, 'fast'), outExtension: { '.js': '.cjs' } });
// Packages stay in node_modules, but for js-yaml in the commands that parse lessons: in their bundle V8's code cache holds
// it (required from node_modules it cost about 17 ms of each such run). Preflight and the hook read no lesson file on their
// usual runs, and 70 KB more of bundle cost them 2-6 ms.
const READ_NO_LESSON = ['preflight', 'hook'];
const external = Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies).filter((name) => name !== 'js-yaml');
await build({ ...common, ...entries(READ_NO_LESSON) });
await build({ ...common, packages: undefined, external, ...entries(BUNDLED_COMMANDS.filter((name) => !READ_NO_LESSON.includes(name))) });
await build({ ...common, entryPoints: [path.join(dist, 'cli/bin.js')], outfile: path.join(dist, 'cli/lessons.cjs') });

for (const file of [...BUNDLED_COMMANDS.map((name) => `fast/${name}.cjs`), 'cli/lessons.cjs']) {
  const text = fs.readFileSync(path.join(dist, file), 'utf8');
  // Every Node module must go through the plugin above (a missed name would be undefined at run time).
  if (/__toESM\(require\("node:/.test(text)) throw new Error(`${file}: a node: module was bundled without the builtins plugin`);
  // One character past ASCII makes V8 hold the whole source as two-byte text: twice the memory, on every run.
  const wide = text.search(/[^\x00-\x7f]/);
  if (wide >= 0) throw new Error(`${file}: a character past ASCII at ${wide} (${JSON.stringify(text.slice(Math.max(0, wide - 30), wide + 10))}): write it as a \\u escape in the source`);
}
fs.chmodSync(path.join(dist, 'cli/lessons.cjs'), 0o755);

// Each schema's validator as code (ajv's standalone output), loaded instead of compiling the
// schema at run time; made by the same function and options the run-time compile uses.
{
  const { SCHEMA_NAMES, compiledValidatorFile, validatorSource } = await import(path.join(dist, 'src/schema/validate.js'));
  const out = path.dirname(compiledValidatorFile(SCHEMA_NAMES[0]));
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  for (const name of SCHEMA_NAMES) fs.writeFileSync(compiledValidatorFile(name), validatorSource(name));
}
