/**
 * `[LESSON] ... [/LESSON]` and `[PROCESS_KNOWLEDGE] ... [/PROCESS_KNOWLEDGE]` blocks in agent
 * text (SPEC §9), turned into drafts: a title (the first line) and the rest.
 */
import { sha256 } from '../util/digest.js';

export type BlockKind = 'LESSON' | 'PROCESS_KNOWLEDGE';

export interface Draft {
  kind: BlockKind;
  title: string;
  /** The block's text after its first line. */
  text: string;
  /** Bullet lines of the block: they become the Prevention Checklist. */
  checklist: string[];
  /** Digest of the block's normalised text: the same block captured twice is one draft. */
  digest: string;
}

const BLOCK = /\[(LESSON|PROCESS_KNOWLEDGE)\]([\s\S]*?)\[\/\1\]/g;

export function extractDrafts(text: string): Draft[] {
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(BLOCK)) {
    const kind = match[1] as BlockKind;
    const lines = match[2]!.split('\n').map((line) => line.trimEnd());
    while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
    const first = lines.shift();
    if (first === undefined) continue;
    const title = first.trim().replace(/^#+\s*/, '').replace(/^title:\s*/i, '').trim().slice(0, 200);
    if (title === '') continue;
    const rest = lines.join('\n').trim();
    const checklist = lines.map((line) => /^\s*[-*+]\s+(?:\[[ xX]\]\s*)?(.+)$/.exec(line)?.[1]?.trim()).filter((item): item is string => !!item);
    const digest = sha256(`${kind}\n${title}\n${rest}`.toLowerCase().replace(/\s+/g, ' ')).slice(0, 16);
    if (seen.has(digest)) continue;
    seen.add(digest);
    drafts.push({ kind, title, text: rest, checklist, digest });
  }
  return drafts;
}
