/**
 * The workflow's install step against the repository: `npm ci` needs a lockfile, and
 * `npx --no-install lessons` needs lessons among package.json's dependencies. The fix names the
 * command `lessons init` writes for this repository now.
 */
import path from 'node:path';
import { DEV_INSTALL_COMMAND, PROJECT_BIN, ciInstallCommand, lessonsDependencySpec, npmLockfile, workflowInstall } from '../init/install.js';
import { WORKFLOW_FILE } from '../init/workflow.js';
import { readTextOrUndefined } from '../io/fs.js';
import { check, type Check } from './check.js';

/** The one-line `run:` commands of a workflow, in order. */
function runCommands(workflow: string): string[] {
  return [...workflow.matchAll(/^\s*(?:- )?run:[ \t]*(\S.*)$/gm)].map((match) => match[1]!.trim());
}

export function workflowInstallCheck(root: string): Check {
  const workflow = readTextOrUndefined(path.join(root, WORKFLOW_FILE));
  if (workflow === undefined) return check('workflow', 'skip', `no ${WORKFLOW_FILE}: pull requests are not checked`, 'run `lessons init` to write it');
  const runs = runCommands(workflow);
  const wanted = ciInstallCommand(workflowInstall(root));
  const npmCi = runs.find((command) => /^npm ci(\s|$)/.test(command));
  if (npmCi !== undefined && npmLockfile(root) === undefined) {
    return check('workflow', 'fail', `${WORKFLOW_FILE} runs \`${npmCi}\`, which fails here: this repository has no package-lock.json`, `replace \`${npmCi}\` with \`${wanted}\` in ${WORKFLOW_FILE}`);
  }
  if (workflow.includes(PROJECT_BIN) && lessonsDependencySpec(root) === undefined) {
    return check(
      'workflow',
      'fail',
      `${WORKFLOW_FILE} runs \`${PROJECT_BIN}\`, but package.json does not depend on lessons, so no step installs it`,
      `add it as a dev dependency (\`${DEV_INSTALL_COMMAND}\`), or have the workflow run \`${wanted}\` and call \`lessons\``,
    );
  }
  const install = runs.find((command) => /^npm (ci|install|i)(\s|$)/.test(command));
  return check('workflow', 'ok', `${WORKFLOW_FILE} installs lessons with \`${install ?? 'a step of its own'}\``);
}
