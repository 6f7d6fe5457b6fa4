import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEVELS } from '../../src/lesson/model.js';
import { reportLessons } from '../../src/report/report-lessons.js';
import { renderHtml } from '../../src/report/html.js';
import type { Report } from '../../src/report/report.js';
import { generateRepo } from '../bench/synthetic.js';
import { openPage, screenshot } from '../helpers/chromium.js';
import { HOSTILE, hostileRepo } from '../helpers/report.js';
import { PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

const SECTIONS = ['tree', 'aging', 'use', 'efficacy', 'drift', 'backlog', 'retrieval'];
/** Where the screenshots stay after the run, to be looked at. */
const SHOTS = process.env.REPORT_SCREENSHOTS ?? path.join(os.tmpdir(), 'lessons-report-screenshots');
const now = new Date('2026-11-23T00:00:00Z');

function writePage(report: Report): string {
  const file = path.join(tempDir('report-page-'), 'report.html');
  fs.writeFileSync(file, renderHtml(report));
  return file;
}

/** The figures each section shows, as the report model has them. */
function figures(report: Report): Record<string, Record<string, number>> {
  const level = (name: (typeof LEVELS)[number]) => Object.values(report.counts[name]).reduce((sum, n) => sum + n, 0);
  return {
    tree: { case: level('case'), pattern: level('pattern'), principle: level('principle') },
    aging: { stale: report.stale.length, limit: report.stale_after_days },
    use: report.usage.available || report.usage.sessions > 0 ? { 'commits-with-trailer': report.usage.commits_with_trailer, sessions: report.usage.sessions, 'never-selected': report.usage.never_used.length } : {},
    efficacy: { shown: report.efficacy.lessons.length, 'not-working': report.efficacy.not_working },
    drift: { 'dead-paths': report.drift.dead_paths.length, 'missing-references': report.drift.missing_references.length, quiet: report.drift.quiet.length },
    backlog: { candidates: report.candidates.length, 'ready-to-promote': report.ready_to_promote.length, 'duplicate-clusters': report.duplicates.length },
    retrieval: {},
  };
}

/** Checks, through the DOM Chromium built, that every section rendered with its figures and a chart where it has one. */
function expectSections(dom: string, report: Report): void {
  for (const [id, expected] of Object.entries(figures(report))) {
    const section = new RegExp(`<section id="${id}" data-section="${id}">([\\s\\S]*?)</section>`).exec(dom);
    expect(section, `section ${id}`).not.toBeNull();
    for (const [key, value] of Object.entries(expected)) expect(section![1], `${id}: ${key}`).toContain(`<dd data-figure="${key}">${value}</dd>`);
  }
  expect(SECTIONS.every((id) => dom.includes(`data-section="${id}"`))).toBe(true);
  expect(dom).toContain('<svg class="chart"');
}

describe('the HTML report in headless Chromium', () => {
  it('sees what a page writes to its console (the check below can fail)', () => {
    const file = path.join(tempDir(), 'control.html');
    fs.writeFileSync(file, '<!DOCTYPE html><p>x</p><script>console.error("control-error"); missing();</script>');
    const page = openPage(file);
    expect(page.console.join('\n')).toContain('control-error');
    expect(page.console.join('\n')).toContain('missing is not defined');
  });

  it("renders this repository's report with every section and its figures, a clean console, and a screenshot", async () => {
    const report = await reportLessons({ cwd: PACKAGE_ROOT, now });
    const file = writePage(report);
    const page = openPage(file);
    expect(page.console).toEqual([]);
    expectSections(page.dom, report);
    expect(page.dom).toContain(`<dd data-figure="lessons">${report.total}</dd>`);
    const png = path.join(SHOTS, 'this-repository.png');
    screenshot(file, png);
    expect(fs.readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    expect(fs.statSync(png).size).toBeGreaterThan(50_000);
  });

  it('runs no script from hostile lessons: their strings are text in the DOM', async () => {
    const report = await reportLessons({ cwd: hostileRepo(), now });
    const file = writePage(report);
    const page = openPage(file);
    expect(page.console).toEqual([]);
    expect(page.dom).not.toMatch(/<(script|img|b)[\s>]/i);
    expect(page.dom).not.toContain('<body id="pwned"');
    expect(page.dom).toContain('<title>Lessons report 2026-11-23</title>');
    expect(page.dom).toContain('&lt;script&gt;document.title="pwned"&lt;/script&gt; in a title');
    expect(page.dom).toContain('&lt;/style&gt;&lt;img src=x onerror="document.body.id=\'pwned\'"&gt; closes the style');
    expect(page.dom).toContain(`title="${HOSTILE.markdown.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}`);
    expectSections(page.dom, report);
    screenshot(file, path.join(SHOTS, 'hostile.png'), 1280, 1600);
  });

  // Its speed is a benchmark row (`npm run bench -- scale`: report and report with its HTML page).
  it('reports on 10,000 lessons in a page under 5 MB that renders every section, the same bytes from a warm cache', async () => {
    const root = tempDir();
    await generateRepo(root, 10_000, 15);
    const builds = [];
    for (let n = 0; n < 2; n++) {
      const built = await reportLessons({ cwd: root, now });
      builds.push({ report: built, html: renderHtml(built) });
    }
    const { report, html } = builds[0]!;
    expect(builds[1]!.html).toBe(html);
    expect(Buffer.byteLength(html)).toBeLessThan(5 * 1024 * 1024);
    expect(report.total).toBe(10_000);
    const file = writePage(report);
    const page = openPage(file);
    expect(page.console).toEqual([]);
    expectSections(page.dom, report);
    screenshot(file, path.join(SHOTS, 'synthetic-10000.png'));
  });
});
