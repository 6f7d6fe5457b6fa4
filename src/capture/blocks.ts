import { INSIGHTS, KINDS, SEVERITIES, TRIGGER_KEYS, type Insight, type Kind, type Severity, type Triggers } from '../lesson/model.js';
import type { Draft } from './store.js';

/**
 * Turns the `[LESSON] ... [/LESSON]` and `[PROCESS_KNOWLEDGE] ... [/PROCESS_KNOWLEDGE]` blocks of
 * a text into drafts. The text may be plain (an agent's answer, a PR body), a JSON document or
 * JSONL (a transcript), whose string fields are searched. Inside a block, `key: value` lines
 * before the first `## ` heading are fields (title, summary, tags, severity, confidence and the
 * trigger lists, kind (or `type`) and insight, and `checklist` as a list or the `- ` items under
 * it); the headings and what follows are the card's body.
 * Process knowledge keeps what its own schema carries: `priority` is the severity,
 * `process_type` the kind, and `trigger_conditions` (tool_names, file_patterns, commands,
 * action/context keywords; indented lines or inline JSON) the triggers. A block that is one
 * JSON object in that schema is read the same way.
 */
export function extractDrafts(input: string): Draft[] {
  const seen = new Set<string>();
  const drafts: Draft[] = [];
  for (const text of searchableTexts(input.replace(/\r\n/g, '\n'))) {
    for (const match of text.matchAll(/\[(LESSON|PROCESS_KNOWLEDGE)\]([\s\S]*?)\[\/\1\]/g)) {
      const content = jsonBlockAsFields(match[2]!.trim());
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

const FIELD = /^(title|summary|tags|severity|priority|confidence|kind|process_type|type|insight|trigger_conditions|checklist|tools|paths|commands|keywords)\s*:\s*(.*?)\s*$/i;

/** Fields whose value may follow on the lines under them: trigger_conditions' keys, checklist's items. */
const NESTED_FIELDS = new Set(['trigger_conditions', 'checklist']);

/** The trigger_conditions keys of process knowledge, and the trigger list each one feeds. */
const CONDITION_KEYS: Record<string, keyof Triggers> = {
  tool_names: 'tools',
  tools: 'tools',
  file_patterns: 'paths',
  paths: 'paths',
  commands: 'commands',
  command_patterns: 'commands',
  action_keywords: 'keywords',
  context_keywords: 'keywords',
  keywords: 'keywords',
};

/** trigger_conditions as triggers: `{"tool_names": [...]}` inline, or `key: [..]` lines under it. */
function conditionTriggers(inline: string, nested: readonly string[]): Partial<Triggers> {
  const pairs: [string, string[]][] = [];
  const parsed = inline.startsWith('{') ? parseJson(inline) : { ok: false as const };
  if (parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
    for (const [key, value] of Object.entries(parsed.value)) pairs.push([key.toLowerCase(), Array.isArray(value) ? value.map(String) : [String(value)]]);
  }
  for (const line of nested) {
    const sub = /^\s*-?\s*([a-z_]+)\s*:\s*(.*?)\s*$/i.exec(line);
    if (sub) pairs.push([sub[1]!.toLowerCase(), list(sub[2])]);
  }
  const triggers: Partial<Triggers> = {};
  for (const [key, values] of pairs) {
    const target = CONDITION_KEYS[key];
    if (target) triggers[target] = [...(triggers[target] ?? []), ...values.map((value) => value.trim()).filter(Boolean)];
  }
  return triggers;
}

/**
 * A block that is one JSON object (the process-knowledge schema) as the `key: value` lines
 * the parser reads; anything else is returned as it is.
 */
function jsonBlockAsFields(content: string): string {
  if (!content.startsWith('{')) return content;
  const parsed = parseJson(content);
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) return content;
  const data = parsed.value as Record<string, unknown>;
  const text = (value: unknown): string => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');
  const lines: string[] = [];
  for (const key of ['title', 'summary', 'severity', 'priority', 'confidence', 'kind', 'process_type', 'insight']) {
    if (data[key] !== undefined && data[key] !== null && typeof data[key] !== 'object') lines.push(`${key}: ${String(data[key])}`);
  }
  if (Array.isArray(data.tags)) lines.push(`tags: ${data.tags.map(String).join(', ')}`);
  if (data.trigger_conditions !== undefined) lines.push(`trigger_conditions: ${JSON.stringify(data.trigger_conditions)}`);
  const description = text(data.description) || text(data.content);
  if (description !== '') lines.push(description);
  const checklist = Array.isArray(data.checklist) ? data.checklist : Array.isArray((data.checklist as { items?: unknown })?.items) ? (data.checklist as { items: unknown[] }).items : [];
  const items = checklist.map(text).filter(Boolean);
  if (items.length > 0) lines.push('', '## Prevention Checklist', '', ...items.map((item) => `- [ ] ${item}`));
  return lines.join('\n');
}

function parseBlock(content: string, processKnowledge: boolean): Draft | undefined {
  const lines = content.split('\n');
  const firstHeading = lines.findIndex((line) => /^#{2,3}\s+\S/.test(line));
  const head = firstHeading < 0 ? lines : lines.slice(0, firstHeading);
  const rest = firstHeading < 0 ? [] : lines.slice(firstHeading);
  const fields = new Map<string, string>();
  const prose: string[] = [];
  const nested: Record<string, string[]> = { trigger_conditions: [], checklist: [] };
  let under: string | undefined;
  for (const line of head) {
    // The indented lines right under `trigger_conditions:` are its keys; those under `checklist:` (or its `- ` items) its items.
    if (under !== undefined && (/^\s+\S/.test(line) || (under === 'checklist' && /^[-*+]\s+\S/.test(line)))) {
      nested[under]!.push(line);
      continue;
    }
    under = undefined;
    const field = FIELD.exec(line.trim());
    if (field && !fields.has(field[1]!.toLowerCase())) {
      const key = field[1]!.toLowerCase();
      fields.set(key, unquote(field[2]!));
      if (NESTED_FIELDS.has(key) && field[2] === '') under = key;
    } else prose.push(line.replace(/^#\s+/, ''));
  }
  const conditionLines = nested.trigger_conditions!;
  const checklistItems = [...list(fields.get('checklist')), ...nested.checklist!.map((line) => line.replace(/^\s*(?:[-*+]\s+)?(?:\[[ xX]\]\s*)?/, '').trim())].filter(Boolean);
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
  if (checklistItems.length > 0 && !/^##\s+prevention checklist\s*$/im.test(sectionsText)) {
    sectionsText = [sectionsText, `## Prevention Checklist\n\n${checklistItems.map((item) => `- [ ] ${item}`).join('\n')}`].filter(Boolean).join('\n\n');
  }
  const hasSituation = /^##\s+situation\s*$/im.test(sectionsText);
  const body = [proseBody !== '' && !hasSituation ? `## Situation\n\n${proseBody}` : proseBody, sectionsText].filter(Boolean).join('\n\n');
  const tags = list(fields.get('tags'));
  if (processKnowledge) tags.push('process-knowledge');
  const severity = (fields.get('severity') ?? fields.get('priority'))?.toLowerCase();
  // Process knowledge names the kind `process_type` or `type`.
  const kind = (fields.get('kind') ?? fields.get('process_type') ?? fields.get('type'))?.toLowerCase();
  const insight = fields.get('insight')?.toLowerCase().replace(/[\s-]+/g, '_');
  const confidence = Number(fields.get('confidence'));
  const triggers: Partial<Triggers> = conditionTriggers(fields.get('trigger_conditions') ?? '', conditionLines);
  for (const key of TRIGGER_KEYS) if (fields.has(key)) triggers[key] = [...(triggers[key] ?? []), ...list(fields.get(key))];
  return {
    title,
    ...(fields.get('summary') ? { summary: fields.get('summary')! } : {}),
    tags,
    ...(SEVERITIES.includes(severity as Severity) ? { severity: severity as Severity } : {}),
    ...(KINDS.includes(kind as Kind) ? { kind: kind as Kind } : {}),
    ...(INSIGHTS.includes(insight as Insight) ? { insight: insight as Insight } : {}),
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
