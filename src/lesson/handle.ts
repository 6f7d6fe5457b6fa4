/**
 * A short handle for a lesson id, as git abbreviates a commit: the shortest prefix of the id
 * that ends where a word of it ends, is at least HANDLE_MIN characters long, and no other id
 * starts with. `lessons show` (and MCP `show`) open a lesson by such a prefix, so a one-line
 * entry can spend its characters on the title the reader judges rather than on a long id.
 */
const HANDLE_MIN = 20;

/**
 * The handle of `id` among ids sorted in code-point order, given its neighbours there (the id
 * just before and just after it, when any): no other id can share a longer prefix with it than
 * one of them does. A source's lesson (`<source>:<id>`) keeps its whole id.
 */
export function shortHandle(id: string, neighbours: readonly string[]): string {
  if (id.includes(':')) return id;
  for (let end = id.indexOf('-', HANDLE_MIN); end > 0; end = id.indexOf('-', end + 1)) {
    const prefix = id.slice(0, end);
    if (!neighbours.some((other) => other.startsWith(prefix))) return prefix;
  }
  return id;
}

/** The ids `prefix` opens: the one it names exactly, else every id that starts with it. */
export function idsForPrefix(prefix: string, ids: readonly string[]): string[] {
  if (ids.includes(prefix)) return [prefix];
  return prefix === '' ? [] : ids.filter((id) => id.startsWith(prefix));
}
