/**
 * The timeline opens in headless Chromium (Debian's package, driven by playwright-core): lanes,
 * crash and fault markers and the violation render; a screenshot is saved beside the report.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { judge } from '../../model/judge.js';
import { parseScenarioText } from '../../simulator/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import { mutantNamed } from '../journals/mutants/index.js';
import { timelineHtml } from './timeline.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '../..');
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.CI) throw new Error(`Chromium is missing at ${CHROMIUM}; .ci/run installs Debian's chromium package`);

async function failingTimeline(): Promise<{ html: string; violations: number }> {
  const scenario = parseScenarioText(readFileSync(join(ROOT, 'reports/mutants/minimal/retry-unsafe-write.json'), 'utf8'));
  scenario.faults.push({ kind: 'response', request: 0, fault: 'delay', delayMs: 10 });
  const journal = mutantNamed('retry-unsafe-write')?.journal;
  if (!journal) throw new Error('the retry-unsafe-write mutant is missing');
  const result = await simulate(journal, scenario);
  const violations = judge(result);
  return { html: timelineHtml(result, violations, 'durasim: retry-unsafe-write'), violations: violations.length };
}

describe('timeline.html', () => {
  test('is self-contained: no script, stylesheet or image is fetched', async () => {
    const { html } = await failingTimeline();
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
  });

  test.skipIf(!haveBrowser)('renders lanes, markers and the violation in headless Chromium', async () => {
    const { html, violations } = await failingTimeline();
    const dir = process.env.DURASIM_SCREENSHOT_DIR ?? join(ROOT, 'reports/out');
    mkdirSync(dir, { recursive: true });
    const page = join(mkdtempSync(join(tmpdir(), 'durasim-timeline-')), 'timeline.html');
    writeFileSync(page, html);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const requests: string[] = [];
      tab.on('request', (r) => requests.push(r.url()));
      await tab.goto(pathToFileURL(page).href);
      const lanes = await tab.locator('th.lane').allTextContents();
      expect(lanes).toEqual(['supervisor', 'worker-0#0', 'worker-0#1', 'user', 'service', 'disk']);
      expect(await tab.locator('.marker.crash').count()).toBe(1);
      expect(await tab.locator('.marker.fault').count()).toBeGreaterThanOrEqual(1);
      expect(await tab.locator('.event.violation').count()).toBeGreaterThanOrEqual(1);
      expect(await tab.locator('ol.violations li').count()).toBe(violations);
      await expect(tab.locator('.crash-report h4').allTextContents()).resolves.toEqual(['Disk kept (durable records)', 'Disk lost (volatile)']);
      expect(await tab.locator('.event.violation').first().isVisible()).toBe(true);
      expect(requests.every((url) => url.startsWith('file:'))).toBe(true);
      await tab.locator('.event.violation').first().scrollIntoViewIfNeeded();
      const shot = join(dir, 'timeline.png');
      await tab.screenshot({ path: shot, fullPage: false });
      expect(existsSync(shot)).toBe(true);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
