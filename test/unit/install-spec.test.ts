import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsBlock, AGENTS_BLOCK, upsertAgentsBlock } from '../../src/init/agents-block.js';
import { ciInstall, ciInstallCommand, runningInstallSpec } from '../../src/init/install.js';
import { tempDir, writeFiles } from '../helpers/repo.js';

/** A node_modules tree holding lessons, with npm's hidden lockfile saying where it came from. */
function installedFrom(resolved: string): string {
  const root = tempDir();
  const lock = { lockfileVersion: 3, packages: { 'node_modules/lessons': { version: '0.1.0', resolved } } };
  writeFiles(root, { 'node_modules/.package-lock.json': JSON.stringify(lock), 'node_modules/lessons/package.json': '{}' });
  return path.join(root, 'node_modules/lessons');
}

describe('what installed the running lessons', () => {
  it('is the pinned git URL or the registry version a CI runner can fetch, and nothing for a local path', () => {
    expect(runningInstallSpec(installedFrom('git+https://git.example/acme/lessons.git#0123abc'), '0.1.0')).toBe('git+https://git.example/acme/lessons.git#0123abc');
    expect(runningInstallSpec(installedFrom('git+ssh://git@git.example/acme/lessons.git#0123abc'), '0.1.0')).toBe('git+ssh://git@git.example/acme/lessons.git#0123abc');
    expect(runningInstallSpec(installedFrom('https://registry.npmjs.org/lessons/-/lessons-0.1.0.tgz'), '0.1.0')).toBe('lessons@0.1.0');
    expect(runningInstallSpec(installedFrom('git+file:///home/me/lessons.git#0123abc'), '0.1.0')).toBeUndefined();
    expect(runningInstallSpec(installedFrom('file:../lessons-0.1.0.tgz'), '0.1.0')).toBeUndefined();
    expect(runningInstallSpec(tempDir(), '0.1.0')).toBeUndefined();
  });

  it('decides the CI install: npm ci with a lockfile, --no-save of the spec without, global without the dependency', () => {
    const root = tempDir();
    expect(ciInstall(root, { version: '0.1.0', spec: undefined })).toEqual({ how: 'global', spec: 'lessons@0.1.0', fromRegistry: true });
    expect(ciInstall(root, { version: '0.1.0', spec: 'git+https://h/o/lessons.git#abc' })).toEqual({ how: 'global', spec: 'git+https://h/o/lessons.git#abc', fromRegistry: false });
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ devDependencies: { lessons: 'git+https://h/o/lessons.git#v0.1.0' } }));
    const noLock = ciInstall(root, { version: '0.1.0', spec: undefined });
    expect(ciInstallCommand(noLock)).toBe('npm install --no-save lessons@git+https://h/o/lessons.git#v0.1.0');
    fs.writeFileSync(path.join(root, 'npm-shrinkwrap.json'), '{}');
    expect(ciInstallCommand(ciInstall(root, { version: '0.1.0', spec: undefined }))).toBe('npm ci');
  });
});

describe('the AGENTS.md block for a dev dependency', () => {
  it('replaces the block init wrote for a global install without --force, and keeps one edited by hand', () => {
    const npx = agentsBlock('npx --no-install lessons');
    expect(upsertAgentsBlock(`# Rules\n\n${AGENTS_BLOCK}`, false, npx)).toEqual({ text: `# Rules\n\n${npx}`, action: 'updated' });
    const edited = `# Rules\n\n${AGENTS_BLOCK.replace('first status update', 'first update')}`;
    expect(upsertAgentsBlock(edited, false, npx).action).toBe('differs');
  });
});
