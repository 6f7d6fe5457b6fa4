/** The GitHub Actions workflow `lessons init` writes to .github/workflows/lessons.yml. */
export const WORKFLOW_FILE = '.github/workflows/lessons.yml';

/**
 * Checks every pull request: lint, a fresh index, and the guard over the PR's commits.
 * `fetch-depth: 0` gives the guard the base branch's history for the range and the trailers.
 * With lessons in package.json, `npm ci` installs the pinned version; otherwise it is
 * installed globally at `version`. Then the report (reportSteps).
 */
export function workflowYaml(options: { inPackageJson: boolean; version: string }): string {
  const install = options.inPackageJson ? 'npm ci' : `npm install --global lessons@${options.version}`;
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
      - run: ${install}
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
