import { SEVERITIES, TRIGGER_KEYS, type Severity, type Triggers } from '../lesson/model.js';
import type { Draft } from './store.js';

/**
 * Turns the `[LESSON] ... [/LESSON]` and `[PROCESS_KNOWLEDGE] ... [/PROCESS_KNOWLEDGE]` blocks of
 * a text into drafts. The text may be plain (an agent's answer, a PR body), a JSON document or
 * JSONL (a transcript), whose string fields are searched. Inside a block, `key: value` lines
 * before the first `## ` heading are fields (title, summary, tags, severity, confidence and the
 * trigger lists); the headings and what follows are the card's body.
 */
export function extractDrafts(input: string): Draft[] {
  const seen = new Set<string>();
  const drafts: Draft[] = [];
  for (const text of searchableTexts(input.replace(/\r\n/g, '\n'))) {
    for (const match of text.matchAll(/\[(LESSON|PROCESS_KNOWLEDGE)\]([\s\S]*?)\[\/\1\]/g)) {
      const content = match[2]!.trim();
      // A transcript repeats a block when a tool echoes it: one block is one lesson.
      if (seen.has(content)) continue;
      seen.add(content);
      const draft = parseBlock(content, match[1] === 'PROCESS_KNOWLEDGE');
      if (draft) drafts.push(draft);
    }
  }
  return drafts;
}

/** The plain text, or every string inside a JSON document or JSONL lines, in order. */
function searchableTexts(input: string): string[] {
  const trimmed = input.trim();
  if (!/^[[{]/.test(trimmed)) return [input];
  const whole = parseJson(trimmed);
  if (whole.ok) return stringsIn(whole.value);
  // JSONL: strings from the lines that parse; the other lines stay text (a block may span them).
  const texts: string[] = [];
  const rest: string[] = [];
  for (const line of input.split('\n')) {
    const parsed = line.trim() === '' ? { ok: false as const } : parseJson(line);
    if (parsed.ok && parsed.value !== null && typeof parsed.value === 'object') texts.push(...stringsIn(parsed.value));
    else rest.push(line);
  }
  return [...texts, rest.join('\n')];
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return value.includes('[') ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

const FIELD = /^\s*(title|summary|tags|severity|confidence|tools|paths|commands|keywords)\s*:\s*(.*?)\s*$/i;

function parseBlock(content: string, processKnowledge: boolean): Draft | undefined {
  const lines = content.split('\n');
  const firstHeading = lines.findIndex((line) => /^#{2,3}\s+\S/.test(line));
  const head = firstHeading < 0 ? lines : lines.slice(0, firstHeading);
  const rest = firstHeading < 0 ? [] : lines.slice(firstHeading);
  const fields = new Map<string, string>();
  const prose: string[] = [];
  for (const line of head) {
    const field = FIELD.exec(line);
    if (field && !fields.has(field[1]!.toLowerCase())) fields.set(field[1]!.toLowerCase(), unquote(field[2]!));
    else prose.push(line.replace(/^#\s+/, ''));
  }
  const text = prose.join('\n').trim();
  const title = fields.get('title') || text.split('\n')[0]?.replace(/^[-*]\s+/, '').trim() || '';
  if (!/[\p{L}\p{N}]/u.test(title)) return undefined;
  let proseBody = (fields.has('title') ? text : text.split('\n').slice(1).join('\n')).trim();
  let sectionsText = rest.map((line) => line.replace(/^###(\s)/, '##$1')).join('\n').trim();
  if (sectionsText === '') {
    // A short block without card sections: its bullet lines are the checklist, the rest the situation.
    const bullets = proseBody.split('\n').filter((line) => /^\s*[-*+]\s+\S/.test(line));
    if (bullets.length > 0) {
      proseBody = proseBody.split('\n').filter((line) => !bullets.includes(line)).join('\n').trim();
      sectionsText = `## Prevention Checklist\n\n${bullets.map((line) => `- [ ] ${line.replace(/^\s*[-*+]\s+(?:\[[ xX]\]\s*)?/, '')}`).join('\n')}`;
    }
  }
  const hasSituation = /^##\s+situation\s*$/im.test(sectionsText);
  const body = [proseBody !== '' && !hasSituation ? `## Situation\n\n${proseBody}` : proseBody, sectionsText].filter(Boolean).join('\n\n');
  const tags = list(fields.get('tags'));
  if (processKnowledge) tags.push('process-knowledge');
  const severity = fields.get('severity')?.toLowerCase();
  const confidence = Number(fields.get('confidence'));
  const triggers: Partial<Triggers> = {};
  for (const key of TRIGGER_KEYS) if (fields.has(key)) triggers[key] = list(fields.get(key));
  return {
    title,
    ...(fields.get('summary') ? { summary: fields.get('summary')! } : {}),
    tags,
    ...(SEVERITIES.includes(severity as Severity) ? { severity: severity as Severity } : {}),
    body: body === '' ? '' : `${body}\n`,
    ...(Object.keys(triggers).length > 0 ? { triggers } : {}),
    ...(Number.isInteger(confidence) && confidence >= 1 && confidence <= 5 ? { confidence } : {}),
  };
}

/** `[a, b]`, `a, b` or `"a", 'b'`. */
function list(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((part) => unquote(part.trim()))
    .filter(Boolean);
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}
