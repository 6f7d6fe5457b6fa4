/**
 * What this process did that a usual run of it does not (rebuild the search cache, scan the
 * lesson files): the hot commands' V8 code cache is saved only from a run that did none of it
 * (cli/fast/bundle.ts), so one-off code is not compiled into every later run.
 */
let usual = true;

export function markUnusualRun(): void {
  usual = false;
}

export function isUsualRun(): boolean {
  return usual;
}
