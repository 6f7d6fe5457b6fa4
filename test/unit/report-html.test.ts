import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { escapeHtml, escapeMarkdown } from '../../src/report/markup.js';
import { reportLessons } from '../../src/report/report-lessons.js';
import { barChart, graphChart } from '../../src/report/svg.js';
import { HOSTILE, hostileRepo, REPORT_TAGS } from '../helpers/report.js';

const now = new Date('2026-11-21T12:00:00Z');

/** Every tag the markup opens or closes, outside the one stylesheet. */
function tags(html: string): string[] {
  const withoutStyle = html.replace(/<style>[^<]*<\/style>/, '<style></style>');
  return [...withoutStyle.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((match) => match[1]!.toLowerCase());
}

describe('the HTML report escapes every lesson string', () => {
  it('renders hostile titles, summaries, tags and trigger paths as text', async () => {
    const report = await reportLessons({ cwd: hostileRepo(), now });
    const html = renderHtml(report);
    expect(new Set(tags(html))).toEqual(new Set([...tags(html)].filter((tag) => REPORT_TAGS.has(tag))));
    expect(tags(html)).not.toContain('script');
    expect(tags(html)).not.toContain('img');
    expect(tags(html)).not.toContain('b');
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    // Every opening tag is a name and double-quoted attributes with no quote inside, none an event handler.
    const openingTags = html.match(/<[a-zA-Z][^>]*>/g) ?? [];
    expect(openingTags.filter((tag) => !/^<[a-zA-Z][\w-]*(\s[\w:-]+="[^"<>]*")*\s*\/?>$/.test(tag))).toEqual([]);
    const attributes = openingTags.flatMap((tag) => [...tag.matchAll(/\s([\w:-]+)="/g)].map((match) => match[1]!));
    expect(attributes.filter((name) => /^on/i.test(name))).toEqual([]);
    // The strings are there, as text.
    expect(html).toContain(escapeHtml(HOSTILE.script));
    expect(html).toContain(escapeHtml(HOSTILE.style));
    expect(html).toContain(escapeHtml(HOSTILE.attribute));
    expect(html).toContain(escapeHtml(HOSTILE.markdown));
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
  });

  it('escapes them in markdown too', async () => {
    const markdown = renderMarkdown(await reportLessons({ cwd: hostileRepo(), now }));
    expect(markdown).not.toMatch(/<(script|img|b|\/style)\b/i);
    expect(markdown).toContain(escapeMarkdown(HOSTILE.attribute));
    expect(escapeMarkdown(HOSTILE.markdown)).toBe('&lt;b onclick=&quot;document.body.id=&#39;pwned&#39;&quot;&gt;bold&lt;/b&gt; \\| pipe \\`tick\\` \\*star\\*');
  });

  it('escapes chart labels and tones', () => {
    const bar = barChart('<t>', [{ label: '<script>x</script>', value: 3, tone: '"bad' }]);
    expect(bar).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(bar).toContain('class="tone-&quot;bad"');
    expect(tags(bar).filter((tag) => !REPORT_TAGS.has(tag))).toEqual([]);
    const graph = graphChart('g', [{ label: 'cases', nodes: [{ id: '<img src=x>', tone: 'case', muted: true }] }], []);
    expect(graph).toContain('&lt;img src=x&gt;');
    expect(graph).toContain('class="node muted"');
  });
});

describe('the HTML report', () => {
  it('is the same bytes for the same repository and date, and says the date', async () => {
    const root = hostileRepo();
    const first = renderHtml(await reportLessons({ cwd: root, now }));
    expect(renderHtml(await reportLessons({ cwd: root, now }))).toBe(first);
    expect(first).toContain('<title>Lessons report 2026-11-21</title>');
  });

  it('has every section, each with its figures', async () => {
    const report = await reportLessons({ cwd: hostileRepo(), now });
    const html = renderHtml(report);
    for (const id of ['tree', 'aging', 'use', 'efficacy', 'drift', 'backlog', 'retrieval']) expect(html).toContain(`<section id="${id}" data-section="${id}">`);
    expect(html).toContain(`<dd data-figure="lessons">4</dd>`);
    expect(html).toContain(`<dd data-figure="stale">1</dd>`);
    expect(html).toContain(`<dd data-figure="sessions">1</dd>`);
    expect(html).toContain(`<dd data-figure="dead-paths">2</dd>`);
    expect(html).toContain('no lessons/evals.json');
  });
});
