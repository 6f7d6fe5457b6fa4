let cell: Int32Array | undefined;

/** Blocks this thread for `ms` milliseconds (a wait on a cell no one signals): for synchronous retry loops only. */
export function sleepSync(ms: number): void {
  cell ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(cell, 0, 0, ms);
}
