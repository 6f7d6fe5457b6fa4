/** The git hooks `lessons hooks install` writes, as POSIX shell scripts. */
import { INSTALL_HINT, inDoubleQuotes } from '../init/install.js';

/** The hooks that check commits and pushes (what `lessons doctor` requires). */
export const CHECK_HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'pre-push'] as const;
/** And the ones that keep the search cache fresh after git changed the working tree (refreshScript()). */
export const MANAGED_HOOKS = [...CHECK_HOOKS, 'post-merge', 'post-checkout', 'post-rewrite'] as const;
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
  const hint = `echo "lessons: the \\\`lessons\\\` command was not found in node_modules/.bin or on PATH: ${inDoubleQuotes(INSTALL_HINT)}" >&2`;
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

/**
 * After git changed the working tree (a merge or pull, a branch checkout, a rebase or amend):
 * `lessons hooks refresh` brings the search cache up to date, so the next preflight and the
 * agent hooks find it fresh (past 2 MiB of index the update runs detached and the hook returns
 * at once). It never changes git's outcome: the hook exits with the status of the hook that was
 * there before, or 0, and says nothing (these run on every checkout). post-rewrite's stdin (the
 * rewritten commits) goes to that hook; a checkout of files, not a branch, refreshes nothing.
 */
function refreshScript(hook: 'post-merge' | 'post-checkout' | 'post-rewrite'): string {
  const stdin = hook === 'post-rewrite';
  const branchOnly = hook === 'post-checkout' ? '[ "${3:-1}" = "0" ] && exit "$status"\n' : '';
  return `${PREAMBLE}${stdin ? 'stdin_file=$(mktemp) || exit 0\ntrap \'rm -f "$stdin_file"\' EXIT\ncat >"$stdin_file"\n' : ''}status=0
previous="$(dirname "$0")/${hook}${PREVIOUS_SUFFIX}"
if [ -x "$previous" ]; then
  "$previous" "$@"${stdin ? ' <"$stdin_file"' : ''} || status=$?
fi
[ "\${LESSONS_DISABLE:-}" = "1" ] && exit "$status"
${branchOnly}${FIND_BIN}if bin=$(lessons_bin); then
  "$bin" hooks refresh </dev/null >/dev/null 2>&1 || true
fi
exit "$status"
`;
}

/** The script for one hook. */
export function hookScript(hook: ManagedHook): string {
  switch (hook) {
    case 'post-merge':
    case 'post-checkout':
    case 'post-rewrite':
      return refreshScript(hook);
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
