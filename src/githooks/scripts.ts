/** The git hooks `lessons hooks install` writes, as POSIX shell scripts. */

export const MANAGED_HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'pre-push'] as const;
export type ManagedHook = (typeof MANAGED_HOOKS)[number];

/** The line that marks a hook as written by lessons: install rewrites it, uninstall removes it. */
export const MANAGED_MARKER = '# lessons-managed-hook';

/** Where install moves a hook it found, to call it first and to put it back on uninstall. */
export const PREVIOUS_SUFFIX = '.lessons-previous';

const PREAMBLE = `#!/bin/sh
${MANAGED_MARKER}: written by \`lessons hooks install\`; \`lessons hooks uninstall\` restores the hook that was here before.
# LESSONS_DISABLE=1 turns the lessons part into a no-op (a hook that was here before still runs).
`;

const FIND_BIN = `lessons_bin() {
  top=$(git rev-parse --show-toplevel 2>/dev/null) || top=.
  if [ -x "$top/node_modules/.bin/lessons" ]; then
    printf '%s\\n' "$top/node_modules/.bin/lessons"
  elif command -v lessons >/dev/null 2>&1; then
    command -v lessons
  else
    return 1
  fi
}
`;

function chain(hook: ManagedHook, withStdin: boolean): string {
  const input = withStdin ? ' <"$stdin_file"' : '';
  return `previous="$(dirname "$0")/${hook}${PREVIOUS_SUFFIX}"
if [ -x "$previous" ]; then
  "$previous" "$@"${input} || exit $?
fi
`;
}

function disabled(hook: ManagedHook): string {
  return `if [ "\${LESSONS_DISABLE:-}" = "1" ]; then
  echo "lessons: LESSONS_DISABLE=1: skipping the ${hook} check" >&2
  exit 0
fi
`;
}

function missing(blocking: boolean, bypass: string): string {
  const hint = 'echo "lessons: the \\`lessons\\` command was not found in node_modules/.bin or on PATH: install it with \\`npm install --save-dev lessons\\` (or \\`npm install --global lessons\\`)" >&2';
  if (!blocking) return `if ! bin=$(lessons_bin); then\n  ${hint}\n  exit 0\nfi\n`;
  return `if ! bin=$(lessons_bin); then
  ${hint}
  echo "lessons: the guard could not run, so this is blocked; bypass it knowingly with \\\`${bypass}\\\` or LESSONS_DISABLE=1" >&2
  exit 1
fi
`;
}

function errored(bypass: string): string {
  return `if [ "$status" -eq 2 ]; then
  echo "lessons: the guard could not run (see the error above); fix it, or bypass knowingly with \\\`${bypass}\\\` or LESSONS_DISABLE=1" >&2
fi
`;
}

/** The script for one hook. */
export function hookScript(hook: ManagedHook): string {
  switch (hook) {
    case 'pre-commit':
      return `${PREAMBLE}${chain(hook, false)}${disabled(hook)}${FIND_BIN}${missing(true, 'git commit --no-verify')}status=0
"$bin" guard --stage pre-commit </dev/null || status=$?
${errored('git commit --no-verify')}exit "$status"
`;
    case 'prepare-commit-msg':
    case 'commit-msg':
      // Never blocks: a missing receipt or tool only means no trailer.
      return `${PREAMBLE}${chain(hook, false)}${disabled(hook)}${FIND_BIN}${missing(false, '')}"$bin" hooks ${hook} "$@" </dev/null || true
exit 0
`;
    case 'pre-push':
      return `${PREAMBLE}stdin_file=$(mktemp) || exit 1
trap 'rm -f "$stdin_file"' EXIT
cat >"$stdin_file"
${chain(hook, true)}${disabled(hook)}${FIND_BIN}${missing(true, 'git push --no-verify')}status=0
# One line per pushed ref: <local ref> <local sha> <remote ref> <remote sha>.
while read -r local_ref local_sha remote_ref remote_sha; do
  case "$local_sha" in *[!0]*) ;; *) continue ;; esac
  base=""
  case "$remote_sha" in
    *[!0]*) if git cat-file -e "$remote_sha^{commit}" 2>/dev/null; then base="$remote_sha"; fi ;;
  esac
  if [ -n "$base" ]; then
    "$bin" guard --stage pre-push --head "$local_sha" --base "$base" </dev/null || status=$?
  else
    "$bin" guard --stage pre-push --head "$local_sha" </dev/null || status=$?
  fi
done <"$stdin_file"
${errored('git push --no-verify')}exit "$status"
`;
  }
}
