import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsScore } from '../../src/search/kernels-score-js.js';
import { KERNELS_WASM } from '../../src/search/kernels-wasm.js';
import { SCORE_INPUTS } from '../../src/search/score-signals.js';
import { PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

/** What this test uses of the WebAssembly JavaScript API (the TypeScript libraries this project builds with do not declare it). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => unknown;
  Memory: new (descriptor: { initial: number }) => unknown;
  Instance: new (module: unknown, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, { length: number }> };
};

/** The files scripts/build-kernels.mjs reads and writes, copied to a directory of their own (with the development dependencies it runs). */
function kernelSources(): string {
  const root = tempDir('lessons-kernels-');
  const files = ['scripts/build-kernels.mjs', 'scripts/generated-files.mjs', ...['kernels.wat', 'score-kernel.ts', 'score-signals.ts', 'fields.ts', 'kernels-wasm.ts', 'kernels-score-js.ts'].map((file) => `src/search/${file}`)];
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.copyFileSync(path.join(PACKAGE_ROOT, file), path.join(root, file));
  }
  fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

const buildKernels = (root: string, ...args: string[]) => spawnSync(process.execPath, [path.join(root, 'scripts/build-kernels.mjs'), ...args], { encoding: 'utf8' });

describe("the score's signals", () => {
  it('are the parameters of both score loops, in the same number', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(KERNELS_WASM, 'base64')), { env: { memory } });
    const buffer = new ArrayBuffer(8);
    expect(exports.score!.length).toBe(SCORE_INPUTS.length);
    expect(jsScore(new Uint8Array(buffer), new Uint16Array(buffer), new Int32Array(buffer), new Float64Array(buffer)).length).toBe(SCORE_INPUTS.length);
  });

  it('make --check fail until both generated files are written again after the table changes', () => {
    const root = kernelSources();
    expect(buildKernels(root, '--check').status).toBe(0);
    const table = path.join(root, 'src/search/score-signals.ts');
    fs.writeFileSync(table, fs.readFileSync(table, 'utf8').replace('u16: true, cap: 8', 'u16: true, cap: 7'));
    const stale = buildKernels(root, '--check');
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('src/search/kernels-wasm.ts is not what');
    expect(stale.stderr).toContain('src/search/kernels-score-js.ts is not what');
    expect(buildKernels(root).status).toBe(0);
    expect(fs.readFileSync(path.join(root, 'src/search/kernels-score-js.ts'), 'utf8')).toContain('Math.min(u16[(row + 6) >> 1]!, 7)');
    expect(buildKernels(root, '--check').status).toBe(0);
  });
});
