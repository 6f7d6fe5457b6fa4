/**
 * Capture reads what agents and logs say, and a transcript holds whatever a command printed:
 * tokens, keys, passwords. Every field of a draft goes through the secrets gate's own rules
 * (the policy's, with its decoding of hidden spellings) before anything of it is written: a
 * lesson file, its file name (the id comes from the title), the index. Pure.
 */
import { redactText, type CompiledRule } from '../secrets/rules.js';
import { TRIGGER_KEYS, type Triggers } from '../lesson/model.js';
import type { Draft } from './store.js';

/** A draft with its secrets replaced by `[redacted <rule>]`, and the rules that matched (once each, in order). */
export function redactDraft(draft: Draft, rules: readonly CompiledRule[]): { draft: Draft; redacted: string[] } {
  const found: string[] = [];
  const clean = (text: string): string => {
    const result = redactText(text, rules);
    found.push(...result.redacted);
    return result.text;
  };
  // A tag that holds a secret is dropped: `[redacted …]` is no tag.
  const tags = draft.tags.filter((tag) => clean(tag) === tag);
  const triggers: Partial<Triggers> = {};
  for (const key of TRIGGER_KEYS) if (draft.triggers?.[key]) triggers[key] = draft.triggers[key]!.map(clean);
  const redactedDraft: Draft = {
    ...draft,
    title: clean(draft.title),
    ...(draft.summary === undefined ? {} : { summary: clean(draft.summary) }),
    tags,
    body: clean(draft.body),
    ...(draft.triggers === undefined ? {} : { triggers }),
  };
  return { draft: redactedDraft, redacted: [...new Set(found)] };
}

/** `; secrets redacted before writing (github-token)` for the rules capture redacted; '' for none. */
export function redactedNote(redacted: readonly string[] | undefined): string {
  return redacted?.length ? `; secrets redacted before writing (${redacted.join(', ')}): each is \`[redacted <rule>]\` in the lesson` : '';
}
