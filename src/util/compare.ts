/**
 * The one comparator for every sort in the project: UTF-16 code-unit order, independent of
 * the machine's locale, so output is byte-identical everywhere.
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortStrings(values: Iterable<string>): string[] {
  return [...values].sort(compareStrings);
}

export function uniqueSorted(values: Iterable<string>): string[] {
  return sortStrings(new Set(values));
}

export function byKey<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => compareStrings(key(a), key(b));
}
