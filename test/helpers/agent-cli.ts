/**
 * What the end-to-end tests of the real agent CLIs (test/claude, test/codex, test/gemini) share:
 * finding the installed CLI, and the release task their stub models play.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { installBinWrapper } from './guard.js';
import { hookRepo } from './hook-repo.js';
import { PACKAGE_ROOT, git, initGitRepo, runCli, writeFiles } from './repo.js';

/** The CLI named by `variable`, else node_modules/.bin/<bin>; a missing one is an error saying how to install it. */
export function installedCli(variable: string, bin: string, install: string): string {
  const candidates = [process.env[variable], path.join(PACKAGE_ROOT, 'node_modules/.bin', bin)].filter((c): c is string => Boolean(c));
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error(`${bin} is not installed: ${install}, or set ${variable}`);
  return found;
}

export const RELEASE_PROMPT = 'Do the version bump for the next release in package.json';
const LESSON_TITLE = 'Release notes forgot the migration step';
/** The model's final answer: the version bumped, and a `[LESSON]` block. */
export const RELEASE_FINAL_TEXT = `Bumped the version.\n[LESSON]\n${LESSON_TITLE}\nThe notes for 1.1.0 did not say that the config must be migrated.\n- Every release note names the migrations it needs\n[/LESSON]`;

/** The candidate cases drafted from RELEASE_FINAL_TEXT's block. */
export function releaseCandidates(root: string): string[] {
  return fs.readdirSync(path.join(root, 'lessons/cases')).filter((name) => name.includes('release-notes-forgot-the-migration-step'));
}

/** The version in the repository's package.json. */
export function packageVersion(root: string): string {
  return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * A committed lessons repository (hookRepo's, or `root`) with a package.json at 1.0.0, the
 * hooks `lessons hooks install --<harness>` writes, and `lessons` in node_modules/.bin (as a
 * devDependency puts it) unless `install` is false.
 */
export async function releaseRepo(harness: string, options: { install?: boolean; root?: string } = {}): Promise<string> {
  const root = initGitRepo(options.root ?? (await hookRepo()));
  writeFiles(root, { 'package.json': '{\n  "name": "app",\n  "version": "1.0.0"\n}\n', '.gitignore': '.lessons/\nnode_modules/\n' });
  expect(runCli(['hooks', 'install', `--${harness}`], { cwd: root }).exitCode).toBe(0);
  if (options.install !== false) installBinWrapper(root);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'initial');
  return root;
}
