import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookRepo } from '../helpers/hook-repo.js';
import { BIN, GIT_ENV, git, initGitRepo, tempDir } from '../helpers/repo.js';

/**
 * The commands that skip yargs run from their bundles (cli/fast/bundle.ts), and what a usual run
 * does not use stays unloaded: yargs, and execa (about 110 ms to load), which only a run that
 * starts a reviewer or fetches a source needs.
 */

/** The modules a run of the built binary loads through require(), by request. */
function loaded(root: string, args: string[], input?: string): string[] {
  const dir = tempDir();
  const tracer = path.join(dir, 'require.cjs');
  fs.writeFileSync(tracer, "const M = require('node:module'); const load = M._load; M._load = function (request, ...rest) { process.stderr.write('LOAD ' + request + '\\n'); return load.call(this, request, ...rest); };\n");
  const result = spawnSync(process.execPath, ['--require', tracer, BIN, ...args], { cwd: root, input, encoding: 'utf8', env: { ...process.env, ...GIT_ENV, NO_COLOR: '1' } });
  expect(result.status, result.stderr).toBeLessThanOrEqual(1);
  return result.stderr.split('\n').filter((line) => line.startsWith('LOAD ')).map((line) => line.slice('LOAD '.length));
}

describe('what the bundled commands load', () => {
  it('lint, index, capture, the pre-commit guard and report run from their bundles and load neither yargs nor execa', async () => {
    const root = initGitRepo(await hookRepo());
    git(root, 'add', '-A');
    const runs: [string[], string?][] = [[['lint']], [['index']], [['index', '--check']], [['capture', '-'], '[LESSON]\ntitle: Version bump missed the manifest\n[/LESSON]\n'], [['guard', '--stage', 'pre-commit']], [['report']]];
    for (const [args, input] of runs) {
      const requests = loaded(root, args, input);
      expect(requests.filter((request) => /execa|yargs/.test(request)), args.join(' ')).toEqual([]);
      // A run from the bundle leaves its V8 code cache; one from the ES modules leaves none.
      expect(fs.existsSync(path.join(root, `.lessons/cache/code/${args[0]}.bin`)), args.join(' ')).toBe(true);
    }
  });
});

describe('the ES modules under a host with a require of its own', () => {
  it('parse a lesson with the package js-yaml, not one the host would find', () => {
    // `node -e` gives the ES modules it imports a global require that resolves from the working directory: here, a
    // folder with no node_modules.
    const dir = tempDir();
    const parse = path.resolve('dist/src/lesson/parse.js');
    const script = `import(${JSON.stringify(parse)}).then((m) => { const r = m.parseLessonText('---\\nid: case-a\\ntitle: "A: b"\\n---\\nBody\\n'); console.log(JSON.stringify(r.ok ? r.file.data : r.problem)); })`;
    const result = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ id: 'case-a', title: 'A: b' });
  });
});
