import fs from 'node:fs';
import path from 'node:path';
import { lessonFile } from './lessons.js';
import { tempLessonsRepo } from './repo.js';

/** Strings that run script, close the stylesheet or break out of an attribute if written unescaped. */
export const HOSTILE = {
  script: '<script>document.title="pwned"</script>',
  style: '</style><img src=x onerror="document.body.id=\'pwned\'">',
  attribute: '" onmouseover="document.body.id=\'pwned\'" x="',
  markdown: '<b onclick="document.body.id=\'pwned\'">bold</b> | pipe `tick` *star*',
};

/**
 * A repository whose lessons carry hostile strings in every field the report shows: titles,
 * summaries (markdown HTML in the body), tags, trigger paths; with a session record that
 * showed them, so they appear in every section.
 */
export function hostileRepo(): string {
  const body = `## Situation\n\n${HOSTILE.markdown} ${HOSTILE.attribute}\n\n## Prevention Checklist\n\n- [ ] ${HOSTILE.script}\n`;
  const root = tempLessonsRepo({
    ...lessonFile({ id: 'case-script', title: `${HOSTILE.script} in a title`, last_validated_at: '2024-01-01', tags: [HOSTILE.style] }, body),
    ...lessonFile({ id: 'case-style', title: `${HOSTILE.style} closes the style`, status: 'candidate', created_at: '2026-01-01', triggers: { paths: [`${HOSTILE.attribute}/**`] } }, body),
    ...lessonFile({ id: 'case-quote', title: `${HOSTILE.attribute} quotes`, triggers: { paths: [`gone/${HOSTILE.script}`] } }, body),
    ...lessonFile({ id: 'case-markdown', title: HOSTILE.markdown, status: 'candidate', source: 'auto' }, body),
  });
  fs.mkdirSync(path.join(root, '.lessons/sessions'), { recursive: true });
  fs.writeFileSync(path.join(root, '.lessons/sessions/s1.json'), JSON.stringify({ session_id: 's1', shown: ['case-script', 'case-quote'], pending: [], captured: [] }));
  return root;
}

/** Tag names an HTML report may contain: the page's own elements and its charts'. */
export const REPORT_TAGS = new Set(
  'html head meta title style body header h1 h2 h3 p dl div dt dd nav a main section table thead tbody tr th td code br span svg text rect line circle g'.split(' '),
);
