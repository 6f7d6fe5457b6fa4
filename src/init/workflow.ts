/** The GitHub Actions workflow `lessons init` writes to .github/workflows/lessons.yml. */
export const WORKFLOW_FILE = '.github/workflows/lessons.yml';

/**
 * How the workflow gets `lessons`: the project's own install when package.json depends on it
 * (the version package-lock.json pins, the one the hooks run), else the exact version that ran
 * `lessons init`, with a comment on how to pin it with the project instead.
 */
function installStep(options: { inPackageJson: boolean; version: string }): string {
  if (options.inPackageJson) {
    return `      # lessons is a dependency of this project: the version package-lock.json pins.
      - name: Install the project's dependencies, lessons among them
        run: npm ci
`;
  }
  return `      # The version of lessons that ran \`lessons init\`. To pin it with the project instead, add it
      # as a dev dependency (\`npm install --save-dev lessons@${options.version}\`), commit
      # package-lock.json, install with \`npm ci\` here and run \`npx --no-install lessons\` below.
      - name: Install lessons ${options.version}
        run: npm install --global lessons@${options.version}
`;
}

/**
 * Checks every pull request: the sources' lessons at their locked commits (nothing when the
 * policy names none), lint, a fresh index, and the guard over the PR's commits.
 * `fetch-depth: 0` gives the guard the base branch's history for the range and the trailers.
 * Then the report (reportSteps).
 */
export function workflowYaml(options: { inPackageJson: boolean; version: string }): string {
  const bin = options.inPackageJson ? 'npx --no-install lessons' : 'lessons';
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
${installStep(options)}      - name: Fetch the sources' lessons at their locked commits
        run: ${bin} sources update --locked
      - name: Lint the lessons
        run: ${bin} lint
      - name: Check that lessons/index.json is fresh
        run: ${bin} index --check
      - name: Guard the pull request
        run: ${bin} guard --stage ci
${reportSteps(bin)}`;
}

/**
 * The lessons report, at the end of the job: its markdown in the job summary on every run,
 * and on a push to the default branch the HTML page as the `lessons-report` artifact.
 */
export function reportSteps(bin: string): string {
  return `      - name: Lessons report
        if: \${{ !cancelled() }}
        run: ${bin} report --html lessons-report.html --format markdown >> "$GITHUB_STEP_SUMMARY"
      - name: Upload the lessons report
        if: \${{ !cancelled() && github.event_name == 'push' && github.ref_name == github.event.repository.default_branch }}
        uses: actions/upload-artifact@v4
        with:
          name: lessons-report
          path: lessons-report.html
`;
}
