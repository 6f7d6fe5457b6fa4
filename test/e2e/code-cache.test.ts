import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANIFEST_ID, hookRepo } from '../helpers/hook-repo.js';
import { runCli, tempDir } from '../helpers/repo.js';

/** The hot commands' code cache (cli/fast/bundle.ts) through the built binary: a speed-up only, never a different answer. */

const TASK = 'bump the version of the package';

function preToolUse(root: string): string {
  // No session: every run answers alike (a session remembers what it was shown).
  return JSON.stringify({ cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(root, 'package.json') } });
}

/** A first preflight builds the search cache: a run unlike the usual ones, whose code cache is not saved. */
function buildSearchCache(root: string): void {
  expect(runCli(['preflight', TASK], { cwd: root }).exitCode).toBe(0);
  expect(fs.existsSync(path.join(root, '.lessons/cache/search.bin'))).toBe(true);
  expect(fs.existsSync(path.join(root, '.lessons/cache/code/preflight.bin'))).toBe(false);
}

describe('the code cache of preflight and the hook', () => {
  it('is written by the first usual run, used by the next, and a damaged one is rewritten with the same answers', async () => {
    const root = await hookRepo();
    buildSearchCache(root);
    const caches = ['preflight', 'hook'].map((name) => path.join(root, `.lessons/cache/code/${name}.bin`));
    const answers = () => [runCli(['preflight', TASK, '--json'], { cwd: root }), runCli(['hook', 'claude', 'PreToolUse'], { cwd: root, input: preToolUse(root) })].map((result) => [result.exitCode, result.stdout.replace(/"index_digest":"[^"]*"/, ''), result.stderr]);
    const first = answers();
    expect(first[1]![1]).toContain(MANIFEST_ID);
    const written = caches.map((file) => fs.statSync(file, { bigint: true }).mtimeNs);
    expect(answers()).toEqual(first);
    expect(caches.map((file) => fs.statSync(file, { bigint: true }).mtimeNs)).toEqual(written);
    for (const file of caches) {
      const bytes = fs.readFileSync(file);
      bytes[bytes.length >> 1]! ^= 0xff;
      fs.writeFileSync(file, bytes);
    }
    const damaged = caches.map((file) => fs.readFileSync(file));
    expect(answers()).toEqual(first);
    caches.forEach((file, i) => expect(fs.readFileSync(file).equals(damaged[i]!), file).toBe(false));
    expect(answers()).toEqual(first);
  });

  it('is written again, holding both, when a run of another kind comes (a session starts with SessionStart, then mostly PreToolUse)', async () => {
    const root = await hookRepo();
    buildSearchCache(root);
    const cache = path.join(root, '.lessons/cache/code/hook.bin');
    const runs = (): unknown => (JSON.parse(fs.readFileSync(cache, 'utf8').slice(0, fs.readFileSync(cache).indexOf(10))) as { runs: string[] }).runs;
    expect(runCli(['hook', 'claude', 'SessionStart'], { cwd: root, input: JSON.stringify({ cwd: root, hook_event_name: 'SessionStart' }) }).exitCode).toBe(0);
    expect(runs()).toEqual(['hook claude SessionStart']);
    const first = runCli(['hook', 'claude', 'PreToolUse'], { cwd: root, input: preToolUse(root) });
    expect(first.stdout).toContain(MANIFEST_ID);
    expect(runs()).toEqual(['hook claude PreToolUse', 'hook claude SessionStart']);
    const written = fs.statSync(cache, { bigint: true }).mtimeNs;
    expect(runCli(['hook', 'claude', 'PreToolUse'], { cwd: root, input: preToolUse(root) })).toEqual(first);
    expect(fs.statSync(cache, { bigint: true }).mtimeNs).toBe(written);
  });

  it('is neither read nor written through a .lessons folder linked outside the repository', async () => {
    const root = await hookRepo();
    const outside = tempDir();
    fs.rmSync(path.join(root, '.lessons'), { recursive: true, force: true });
    fs.symlinkSync(outside, path.join(root, '.lessons'));
    const result = runCli(['hook', 'claude', 'PreToolUse'], { cwd: root, input: preToolUse(root) });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(MANIFEST_ID);
    expect(fs.existsSync(path.join(outside, 'cache/code'))).toBe(false);
  });
});
