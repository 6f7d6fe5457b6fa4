/** Reading a harness's hook input defensively: any field may be missing or of the wrong type. */
import { triggerPath } from '../preflight/query.js';
import { lessonsRootAbove } from '../io/repo.js';

export type HookInput = Record<string, unknown>;

/** Where and when one agent hook runs: the lessons repository it serves, the harness's directory, the clock. */
export interface HookRun {
  root: string;
  cwd: string;
  now: Date;
}

/** What a tool call is about to do, as far as lesson triggers care. */
export interface ToolAction {
  /** Tool name in Claude Code's vocabulary (Bash, Edit, Write, ...); other harnesses map theirs. */
  tool: string | undefined;
  /** Repo-relative POSIX paths the call touches. */
  paths: string[];
  /** The shell command, for Bash-like tools. */
  command: string | undefined;
}

/** The stdin JSON as an object; anything else (empty, malformed, an array) is an empty input. */
export function parseHookInput(stdin: string): HookInput {
  if (stdin.trim() === '') return {};
  try {
    const data = JSON.parse(stdin) as unknown;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as HookInput) : {};
  } catch {
    return {};
  }
}

export function str(input: HookInput, key: string): string | undefined {
  const value = input[key];
  return typeof value === 'string' ? value : undefined;
}

export function obj(input: HookInput, key: string): HookInput {
  const value = input[key];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as HookInput) : {};
}

/** The lessons repository a hook serves: the nearest one above the first directory given. */
export function hookRoot(dirs: readonly (string | undefined)[]): string | undefined {
  for (const dir of dirs) {
    if (!dir) continue;
    const root = lessonsRootAbove(dir);
    if (root) return root;
  }
  return undefined;
}

/** Files named in an apply_patch body (`*** Update File: x`), the form Codex edits files in. */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)) files.push(match[1]!.trim());
  for (const match of patch.matchAll(/^\*\*\* Move to: (.+)$/gm)) files.push(match[1]!.trim());
  return files;
}

/**
 * The action of a Claude-style PreToolUse input (Claude Code, Codex): `tool_name` and the file
 * path fields of `tool_input` (file_path: Read/Edit/MultiEdit/Write; notebook_path: NotebookEdit;
 * path: Glob/Grep), and `tool_input.command` for Bash. Codex's apply_patch is an Edit of the
 * files its patch names.
 */
export function toolAction(root: string, cwd: string, toolName: string | undefined, toolInput: HookInput): ToolAction {
  const files: string[] = [];
  for (const key of ['file_path', 'notebook_path', 'path']) {
    const value = str(toolInput, key);
    if (value) files.push(value);
  }
  let tool = toolName;
  let command = str(toolInput, 'command');
  if (toolName === 'apply_patch') {
    tool = 'Edit';
    files.push(...patchFiles(command ?? str(toolInput, 'input') ?? ''));
    command = undefined;
  }
  return { tool, paths: files.map((file) => triggerPath(root, cwd, file)), command };
}
