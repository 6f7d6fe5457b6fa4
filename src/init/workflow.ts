/** The GitHub Actions workflow `lessons init` writes to .github/workflows/lessons.yml. */
import { DEV_INSTALL_COMMAND, GLOBAL_INSTALL_COMMAND, PROJECT_BIN, ciInstallCommand, type CiInstall } from './install.js';

export const WORKFLOW_FILE = '.github/workflows/lessons.yml';

/** The install step's name, which `lessons doctor` finds the step by. */
export const INSTALL_STEP_NAME = 'Install lessons';

/** Why the step installs the way it does, as the comment above it. */
function installComment(install: CiInstall): string {
  switch (install.how) {
    case 'npm-ci':
      return `# lessons is a dependency of this project: the version ${install.lockfile} pins.`;
    case 'no-save':
      return '# lessons is a dependency of this project, which has no lockfile (`npm ci` needs one):\n' +
        '      # the spec package.json gives, with the project\'s dependencies; --no-save changes no file.';
    case 'global':
      return install.fromRegistry
        ? '# The version of lessons that ran `lessons init`, from the npm registry (once it is published there;\n' +
            `      # until then put its git URL here: ${GLOBAL_INSTALL_COMMAND}). To pin it with the project\n` +
            `      # instead, add it as a dev dependency (${DEV_INSTALL_COMMAND}), then delete this file and run \`lessons init\` again.`
        : '# The lessons that ran `lessons init`, at the commit it was installed from. To pin it with the\n' +
            `      # project instead, add it as a dev dependency (${DEV_INSTALL_COMMAND}), then delete this file and run \`lessons init\` again.`;
  }
}

/** A step's `run:`, as a block scalar when the command holds what YAML would read in a plain one. */
function runLine(command: string): string {
  return /: | #|^[^\w]/.test(command) ? `run: |\n          ${command}` : `run: ${command}`;
}

function installStep(install: CiInstall): string {
  return `      ${installComment(install)}
      - name: ${INSTALL_STEP_NAME}
        ${runLine(ciInstallCommand(install))}
`;
}

/**
 * Checks every pull request: the sources' lessons at their locked commits (nothing when the
 * policy names none), lint, a fresh index, and the guard over the PR's commits.
 * `fetch-depth: 0` gives the guard the base branch's history for the range and the trailers.
 * Then the report (reportSteps).
 */
export function workflowYaml(install: CiInstall): string {
  const bin = workflowBin(install);
  const checks = CHECK_STEPS.map((step) => `      - name: ${step.name}\n        run: ${bin} ${step.args}\n`).join('');
  return `name: lessons

on:
  pull_request:
  push:
    branches: [main, master]

permissions:
  contents: read

jobs:
  lessons:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-node@v4
        with:
          node-version: 20
${installStep(install)}${checks}${reportSteps(bin)}`;
}

/** The command the workflow runs lessons with: the global binary, or the project's install. */
function workflowBin(install: CiInstall): string {
  return install.how === 'global' ? 'lessons' : PROJECT_BIN;
}

/** The checks after the install, in order. */
const CHECK_STEPS = [
  { name: "Fetch the sources' lessons at their locked commits", args: 'sources update --locked' },
  { name: 'Lint the lessons', args: 'lint' },
  { name: 'Check that lessons/index.json is fresh', args: 'index --check' },
  { name: 'Guard the pull request', args: 'guard --stage ci' },
] as const;

/** The commands the workflow runs, in order: the install, the checks and the report. */
export function workflowRunCommands(install: CiInstall): string[] {
  const bin = workflowBin(install);
  return [ciInstallCommand(install), ...CHECK_STEPS.map((step) => `${bin} ${step.args}`), `${bin} ${REPORT_ARGS}`];
}

const REPORT_ARGS = 'report --html lessons-report.html --format markdown >> "$GITHUB_STEP_SUMMARY"';

/**
 * The lessons report, at the end of the job: its markdown in the job summary on every run,
 * and on a push to the default branch the HTML page as the `lessons-report` artifact.
 */
export function reportSteps(bin: string): string {
  return `      - name: Lessons report
        if: \${{ !cancelled() }}
        run: ${bin} ${REPORT_ARGS}
      - name: Upload the lessons report
        if: \${{ !cancelled() && github.event_name == 'push' && github.ref_name == github.event.repository.default_branch }}
        uses: actions/upload-artifact@v4
        with:
          name: lessons-report
          path: lessons-report.html
`;
}
