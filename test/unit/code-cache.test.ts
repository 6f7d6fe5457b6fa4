import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCodeCache, encodeCodeCache, runKind } from '../../cli/fast/bundle.js';
import { statIdentity } from '../../src/io/fs.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-code-cache-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function bundleFile(name: string, text: string): fs.BigIntStats {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return fs.statSync(file, { bigint: true });
}

const made = (bundle: fs.BigIntStats, bytes: number) => ({ format: 1, node: process.version, arch: process.arch, bundle: statIdentity(bundle), bytes, runs: ['hook claude PreToolUse'] });

describe('the code cache file', () => {
  const bundle = bundleFile('a.cjs', 'exports.run = () => 0;');
  const data = Buffer.from(Array.from({ length: 37 }, (_, i) => (i * 7) & 0xff));

  it('gives back exactly the data it was made from, for the same bundle and Node', () => {
    const bytes = encodeCodeCache(made(bundle, data.length), data);
    expect(bytes.indexOf(10) % 8).toBe(7);
    expect(decodeCodeCache(bytes, bundle)).toEqual({ data, runs: ['hook claude PreToolUse'] });
  });

  it('is not believed for another bundle file, another Node, another format or a wrong length', () => {
    const other = bundleFile('b.cjs', 'exports.run = () => 0;');
    expect(decodeCodeCache(encodeCodeCache(made(bundle, data.length), data), other)).toBeUndefined();
    expect(decodeCodeCache(encodeCodeCache({ ...made(bundle, data.length), node: 'v0.0.0' }, data), bundle)).toBeUndefined();
    expect(decodeCodeCache(encodeCodeCache({ ...made(bundle, data.length), format: 0 }, data), bundle)).toBeUndefined();
    expect(decodeCodeCache(encodeCodeCache(made(bundle, data.length + 1), data), bundle)).toBeUndefined();
    expect(decodeCodeCache(encodeCodeCache({ ...made(bundle, data.length), runs: undefined as unknown as string[] }, data), bundle)).toBeUndefined();
  });

  it('is not believed when damaged: a byte changed in either copy, cut short, or not a cache at all', () => {
    const bytes = encodeCodeCache(made(bundle, data.length), data);
    const start = bytes.indexOf(10) + 1;
    for (const at of [start, start + 20, bytes.length - 1]) {
      const damaged = Buffer.from(bytes);
      damaged[at]! ^= 0x01;
      expect(decodeCodeCache(damaged, bundle), `byte ${at}`).toBeUndefined();
    }
    expect(decodeCodeCache(bytes.subarray(0, bytes.length - 1), bundle)).toBeUndefined();
    expect(decodeCodeCache(Buffer.from('not a cache\n'), bundle)).toBeUndefined();
    expect(decodeCodeCache(Buffer.alloc(0), bundle)).toBeUndefined();
  });
});

describe('the kind of run a code cache holds', () => {
  it('is the hook with its harness and event, or the command alone, whatever the options and task', () => {
    expect(runKind(['hook', 'claude', 'PreToolUse'])).toBe('hook claude PreToolUse');
    expect(runKind(['-C', 'repo', 'hook', 'codex', 'Stop', '--timeout-ms', '300'])).toBe('hook codex Stop');
    expect(runKind(['preflight', 'bump the version', '--path', 'package.json'])).toBe('preflight');
    expect(runKind(['--debug', 'preflight', '--tool', 'Edit'])).toBe('preflight');
  });
});
