/**
 * Projects of a monorepo (policy `projects: {billing: ["services/billing/**"]}`): which project
 * the paths in play belong to, and whether a lesson scoped to a project may be shown for it.
 */
import { pathMatches } from '../util/glob.js';

/**
 * The projects whose globs match `file` (a repo-relative POSIX path), in the policy's order.
 * Preflight does not validate the policy (lint, doctor and the guard do): a malformed entry matches nothing.
 */
function projectsOf(projects: Readonly<Record<string, readonly string[]>>, file: string): string[] {
  return Object.entries(projects)
    .filter(([, globs]) => Array.isArray(globs) && globs.some((glob) => typeof glob === 'string' && pathMatches(glob, file)))
    .map(([name]) => name);
}

/**
 * The one project the paths belong to: every path that matches a project matches this one
 * (paths outside every project, a README at the top, do not count). Null when no path matches a
 * project, or when they name different ones: then nothing is inferred and nothing filtered.
 */
export function inferProject(projects: Readonly<Record<string, readonly string[]>> | undefined, paths: readonly string[]): string | null {
  if (!projects || typeof projects !== 'object') return null;
  let found: string | null = null;
  for (const file of paths) {
    const names = projectsOf(projects, file);
    if (names.length === 0) continue;
    if (names.length > 1 || (found !== null && found !== names[0])) return null;
    found = names[0]!;
  }
  return found;
}
