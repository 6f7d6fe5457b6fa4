import { createHash } from 'node:crypto';
import { compareStrings } from '../util/compare.js';

/**
 * A tree's (path, blob id) pairs as the pairs file holds them: records `<path>\0<blob>\0` in
 * path order (compareStrings), looked up by bisection and never split into a map. At 100,000
 * lessons the records are 12 MB: splitting them into strings and a map costs 0.4 s, finding the
 * records' starts a few hundredths, and a lookup seventeen decoded paths.
 */
export class TreeRecords {
  private constructor(
    private readonly bytes: Buffer,
    /** Where each record starts, then where the last one ends. */
    private readonly starts: Int32Array,
    /** Where each record's blob starts. */
    private readonly blobs: Int32Array,
  ) {}

  /** The records of `bytes` from `start` to the end; undefined when they are not whole records (a path, a NUL, a blob, a NUL). */
  static of(bytes: Buffer, start: number): TreeRecords | undefined {
    const starts: number[] = [];
    const blobs: number[] = [];
    let at = start;
    while (at < bytes.length) {
      const pathEnd = bytes.indexOf(0, at);
      const blobEnd = pathEnd === -1 ? -1 : bytes.indexOf(0, pathEnd + 1);
      if (blobEnd === -1 || pathEnd === at || blobEnd === pathEnd + 1) return undefined;
      starts.push(at);
      blobs.push(pathEnd + 1);
      at = blobEnd + 1;
    }
    starts.push(at);
    return new TreeRecords(bytes, Int32Array.from(starts), Int32Array.from(blobs));
  }

  get size(): number {
    return this.blobs.length;
  }

  private pathAt(n: number): string {
    return this.bytes.toString('utf8', this.starts[n]!, this.blobs[n]! - 1);
  }

  private blobAt(n: number): string {
    return this.bytes.toString('utf8', this.blobs[n]!, this.starts[n + 1]! - 1);
  }

  /** The record after the one the last seek found: paths asked for in order are found there, without a bisection. */
  private next = 0;

  /** The number of the first record whose path is not before `path`. */
  private seek(path: string): number {
    const next = this.next;
    if (next < this.size && this.pathAt(next) === path) {
      this.next = next + 1;
      return next;
    }
    const found = this.bisect(path);
    this.next = found + 1;
    return found;
  }

  private bisect(path: string): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareStrings(this.pathAt(middle), path) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  blobOf(path: string): string | undefined {
    const n = this.seek(path);
    return n < this.size && this.pathAt(n) === path ? this.blobAt(n) : undefined;
  }

  /** Every pair, in path order. */
  pairs(): Map<string, string> {
    const pairs = new Map<string, string>();
    for (let n = 0; n < this.size; n++) pairs.set(this.pathAt(n), this.blobAt(n));
    return pairs;
  }

  /**
   * treeDigest() of these pairs with `changes` made (a path to its new blob, or to '' where it
   * goes), and how many pairs that leaves: the records between the changed ones are hashed as
   * they stand.
   */
  digestWith(changes: ReadonlyMap<string, string>): { digest: string; count: number } {
    const hash = createHash('sha256');
    let cursor = 0;
    let count = this.size;
    for (const path of [...changes.keys()].sort(compareStrings)) {
      const n = this.seek(path);
      hash.update(this.bytes.subarray(this.starts[cursor]!, this.starts[n]!));
      const present = n < this.size && this.pathAt(n) === path;
      cursor = present ? n + 1 : n;
      const blob = changes.get(path)!;
      if (blob !== '') hash.update(`${path}\0${blob}\0`);
      count += (blob !== '' ? 1 : 0) - (present ? 1 : 0);
    }
    hash.update(this.bytes.subarray(this.starts[cursor]!, this.starts[this.size]!));
    return { digest: hash.digest('hex'), count };
  }
}
