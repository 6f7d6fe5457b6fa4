/**
 * The secrets scan of a pushed range's history: a credential added in one commit and removed in
 * a later one is not in the head's tree, but it is in every clone of the branch once pushed. So
 * the lines each commit of the range added to the scanned files are scanned too (as gitleaks
 * scans a range), each hunk as one text: a key block split over lines stays whole. Pure.
 */
import type { AddedHunk } from '../io/git/added-lines.js';
import { scanFile } from './index-scan.js';
import type { CompiledRule, SecretMatch } from './rules.js';

/** A match in a commit of the range, at the line the commit added it. */
export type HistoryMatch = SecretMatch & { commit: string };

/**
 * The matches of the added lines, minus allowlisted fingerprints and those the head's scan
 * reports already (`known`): each secret once, at the first commit that added it.
 * `rel` turns a repository path into the lessons-root-relative one findings name.
 */
export function scanAddedLines(hunks: readonly AddedHunk[], rules: readonly CompiledRule[], allowlist: ReadonlySet<string>, known: readonly SecretMatch[], rel: (path: string) => string): HistoryMatch[] {
  const seen = new Set(known.map((match) => match.fingerprint));
  const matches: HistoryMatch[] = [];
  for (const hunk of hunks) {
    const file = rel(hunk.path);
    for (const match of scanFile(file, Buffer.from(hunk.lines.join('\n')), rules)) {
      if (allowlist.has(match.fingerprint) || seen.has(match.fingerprint)) continue;
      seen.add(match.fingerprint);
      matches.push({ ...match, line: hunk.line + match.line - 1, commit: hunk.commit });
    }
  }
  return matches;
}
