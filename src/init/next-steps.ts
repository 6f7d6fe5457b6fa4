/** What `lessons init` tells its user to do next: what to commit, and what the pull request will run. */
import { compareStrings } from '../util/compare.js';
import type { FirstPullRequest, InitEntry } from './init.js';
import { DEV_INSTALL_COMMAND } from './install.js';

/** The paths to `git add` for what init wrote: the top folder of each file written, or the file at the top. */
export function gitAddPaths(entries: readonly InitEntry[]): string[] {
  const tops = new Set(entries.filter((entry) => entry.action !== 'skipped').map((entry) => entry.path.split('/')[0]!));
  return [...tops].sort(compareStrings);
}

/** How the pull request that adds these files runs its own checks, as lines for the terminal. */
export function firstPullRequestLines(pr: FirstPullRequest): string[] {
  const lines = [`the pull request that adds them runs ${pr.workflow}:`, `  ${pr.installCommand}`, ...pr.commands.map((command) => `  ${command}`)];
  if (pr.fromRegistry) {
    lines.push(`  (\`${pr.installCommand}\` installs from the npm registry once lessons is published there; until then add it as a dev dependency, \`${DEV_INSTALL_COMMAND}\`, delete ${pr.workflow} and run \`lessons init\` again)`);
  }
  if (pr.acceptsFirstPolicy) {
    lines.push('  (its base has no policy/workflow-policy.json, so the guard accepts the one this change adds; later changes to it need a maintainer\'s LESSONS_ACCEPT_POLICY)');
  }
  return lines;
}
