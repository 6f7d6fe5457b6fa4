import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from './repo.js';

/** Debian's Chromium, as .ci/run installs it; CHROMIUM overrides. */
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Headless, no sandbox (CI runs as root), and nothing that reaches the network on its own. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
  '--enable-logging=stderr',
  '--v=0',
];

export interface PageRun {
  /** --dump-dom: the DOM after the page loaded, serialised. */
  dom: string;
  /** What the page wrote to its console (messages, uncaught errors, CSP refusals). */
  console: string[];
}

function run(file: string, extra: string[]): { stdout: string; stderr: string } {
  const result = spawnSync(CHROMIUM, [...FLAGS, `--user-data-dir=${tempDir('chromium-profile-')}`, ...extra, pathToFileURL(file).href], {
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`chromium exited ${result.status}: ${result.stderr.slice(-2000)}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

/** Opens a file in headless Chromium and returns its DOM and console. */
export function openPage(file: string): PageRun {
  const { stdout, stderr } = run(file, ['--dump-dom']);
  const console = stderr.split('\n').filter((line) => /:CONSOLE[:(]/.test(line));
  return { dom: stdout, console };
}

/** A screenshot of the page, `width` x `height` CSS pixels, as a PNG file. */
export function screenshot(file: string, png: string, width = 1280, height = 3000): void {
  fs.mkdirSync(path.dirname(png), { recursive: true });
  run(file, [`--window-size=${width},${height}`, `--screenshot=${png}`]);
  if (!fs.existsSync(png)) throw new Error(`chromium wrote no screenshot to ${png}`);
}
