/**
 * The one way the hooks, the MCP server and other callers select lessons: the preflight engine
 * (src/preflight/), through its cached search index, without printing or writing a receipt.
 * With a task it ranks by relevance; with only a tool, paths or a command it is preflight's
 * hook mode (trigger matches, at most the policy's hook_max, critical ones first).
 */
import { selectInRepository } from '../preflight/command.js';
import type { SelectedLesson } from '../preflight/report.js';
import { readPolicyFile } from '../io/policy-file.js';
import { resolvePolicy } from '../policy/policy.js';

/** The most lessons a tool call shows (issue: at most 3, never in the way). */
export const TOOL_CALL_LIMIT = 3;

export interface SelectOptions {
  task: string;
  paths?: readonly string[] | undefined;
  tool?: string | undefined;
  command?: string | undefined;
  limit?: number | undefined;
  now?: Date | undefined;
}

/** A selected lesson, in the shape of `lessons preflight --json` (SPEC §5). */
export type Selected = SelectedLesson;

export async function selectLessons(root: string, options: SelectOptions): Promise<Selected[]> {
  const policy = resolvePolicy(readPolicyFile(root).data);
  const input = { task: options.task, paths: [...(options.paths ?? [])], tool: options.tool ?? null, command: options.command ?? null, project: null };
  const { selected } = await selectInRepository(root, input, policy, options.now ?? new Date(), options.limit);
  return selected;
}
