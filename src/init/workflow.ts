/** The GitHub Actions workflow `lessons init` writes to .github/workflows/lessons.yml. */
import { NO_LESSONS_MARKER, PR_SECTION_MARKER } from '../render/github.js';
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

/** What a repository chose at `lessons init`. */
export interface WorkflowOptions {
  /** `--pr-comment`: the lessons for each pull request as one comment on it (the job's token may then write pull requests). */
  prComment: boolean;
}

/**
 * Checks every pull request: the sources' lessons at their locked commits (nothing when the
 * policy names none), lint, a fresh index, and the guard over the PR's commits, whose job summary
 * ends with the lessons for the change. `fetch-depth: 0` gives the guard the base branch's
 * history for the range and the trailers. Opted in, the comment step (commentStep). Then the
 * report (reportSteps).
 */
export function workflowYaml(install: CiInstall, options: WorkflowOptions = { prComment: false }): string {
  const bin = workflowBin(install);
  const checks = checkSteps(options).map((step) => `      - name: ${step.name}\n        run: ${bin} ${step.args}\n`).join('');
  return `name: lessons

on:
  pull_request:
  push:
    branches: [main, master]

permissions:
  contents: read
${options.prComment ? '  # The comment step writes one comment on the pull request (issues.createComment, updateComment).\n  pull-requests: write\n' : ''}
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
${installStep(install)}${checks}${options.prComment ? commentStep() : ''}${reportSteps(bin)}`;
}

/** The command the workflow runs lessons with: the global binary, or the project's install. */
function workflowBin(install: CiInstall): string {
  return install.how === 'global' ? 'lessons' : PROJECT_BIN;
}

/** Where the guard writes the comment's body for the comment step (inside the git-ignored state folder). */
export const PR_COMMENT_FILE = '.lessons/pr-comment.md';

/** The checks after the install, in order. */
function checkSteps(options: WorkflowOptions): { name: string; args: string }[] {
  return [
    { name: "Fetch the sources' lessons at their locked commits", args: 'sources update --locked' },
    { name: 'Lint the lessons', args: 'lint' },
    { name: 'Check that lessons/index.json is fresh', args: 'index --check' },
    { name: 'Guard the pull request', args: options.prComment ? `guard --stage ci --pr-comment ${PR_COMMENT_FILE}` : 'guard --stage ci' },
  ];
}

/** The commands the workflow runs, in order: the install, the checks and the report. */
export function workflowRunCommands(install: CiInstall, options: WorkflowOptions = { prComment: false }): string[] {
  const bin = workflowBin(install);
  return [ciInstallCommand(install), ...checkSteps(options).map((step) => `${bin} ${step.args}`), `${bin} ${REPORT_ARGS}`];
}

export const COMMENT_STEP_NAME = 'Comment the lessons for this change on the pull request';

/**
 * The one PR comment, posted by actions/github-script with the job's token: found among the
 * pull request's comments by the hidden marker line and its author (github-actions[bot]),
 * rewritten when its text changed, posted only when some lesson applies. It runs also when the
 * guard blocked, and not for a pull request from a fork (whose token cannot write) or a push.
 * Contracts: https://github.com/actions/github-script (the script is the body of an async
 * function given `github`, an authenticated octokit/rest.js client with `paginate`, `context` and
 * `require`); https://docs.github.com/en/rest/issues/comments (list, create and update issue
 * comments: every pull request is an issue; the Pull requests write permission covers them).
 */
function commentStep(): string {
  return `      # Opted in with \`lessons init --pr-comment\`: the guard wrote the section to ${PR_COMMENT_FILE}.
      - name: ${COMMENT_STEP_NAME}
        if: \${{ !cancelled() && github.event_name == 'pull_request' && github.event.pull_request.head.repo.full_name == github.repository }}
        uses: actions/github-script@v7
        with:
          script: |
            const fs = require('fs');
            if (!fs.existsSync('${PR_COMMENT_FILE}')) return;
            const body = fs.readFileSync('${PR_COMMENT_FILE}', 'utf8');
            const { owner, repo } = context.repo;
            const issue_number = context.issue.number;
            const comments = await github.paginate(github.rest.issues.listComments, { owner, repo, issue_number, per_page: 100 });
            const ours = comments.find((comment) => comment.user?.login === 'github-actions[bot]' && comment.body?.startsWith('${PR_SECTION_MARKER}'));
            if (ours) {
              if (ours.body !== body) await github.rest.issues.updateComment({ owner, repo, comment_id: ours.id, body });
            } else if (!body.includes('${NO_LESSONS_MARKER}')) {
              await github.rest.issues.createComment({ owner, repo, issue_number, body });
            }
`;
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
