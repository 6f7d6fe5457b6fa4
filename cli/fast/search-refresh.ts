/**
 * `node search-refresh.js <root>`: brings the search cache of the repository at <root> up to
 * date, detached from the agent hook that started it (src/search/cache.ts). It
 * takes the search-cache lock without waiting, so at most one runs; it prints nothing.
 */
const root = process.argv[2];
if (root !== undefined) {
  const [{ withLock }, { updateSearch, SEARCH_LOCK }] = await Promise.all([import('../../src/io/lock.js'), import('../../src/search/engine.js')]);
  try {
    await withLock(root, SEARCH_LOCK, async () => (await updateSearch(root, { locked: true })).close(), { timeoutMs: 0 });
  } catch {
    // Another process holds the lock (it is updating), or the cache cannot be written: nothing to do.
  }
}
