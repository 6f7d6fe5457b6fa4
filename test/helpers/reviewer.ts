import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './repo.js';

export const FAKE_REVIEWER = path.join(PACKAGE_ROOT, 'test/fixtures/fake-reviewer.mjs');

/** The argv of the fake reviewer in `mode`, answering into the {output} file unless `stdout`. */
export function fakeReviewer(mode: string, options: { stdout?: boolean; extra?: string[] } = {}): string[] {
  return [process.execPath, FAKE_REVIEWER, mode, ...(options.stdout ? [] : ['--output', '{output}']), '--schema', '{schema}', ...(options.extra ?? [])];
}

/** A live process, not a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until the process is gone; false if it still lives after a few seconds. */
export async function waitUntilGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/** Merges `review` into the repository's policy.review (the reviewer command, enabled, ...). */
export function setReview(root: string, review: Record<string, unknown>): void {
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  policy.review = { ...policy.review, ...review };
  fs.writeFileSync(file, JSON.stringify(policy, null, 2));
}
