/**
 * The timeline opens in headless Chromium (Debian's package, driven by playwright-core): lanes in
 * order, the legend, the disk lane, folded rows that open, counts that agree, hover detail and the
 * violation's links; with DURASIM_SCREENSHOT_DIR set, a screenshot per mutant family is saved there.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { judge } from '../../model/judge.js';
import { parseScenarioText } from '../../simulator/scenario/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { MUTANTS, mutantNamed } from '../journals/mutants/index.js';
import { setOffBy, timelineHtml, triggerOf } from './timeline.js';
import { FOLD_AT, lanesOf, timelineRows } from './timelineRows.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '../..');
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.CI) throw new Error(`Chromium is missing at ${CHROMIUM}; .ci/run installs Debian's chromium package`);

async function mutantTimeline(name: string, extra?: (faults: ReturnType<typeof parseScenarioText>) => void) {
  const scenario = parseScenarioText(readFileSync(join(ROOT, 'reports/mutants/minimal', `${name}.json`), 'utf8'));
  extra?.(scenario);
  const journal = mutantNamed(name)?.journal;
  if (!journal) throw new Error(`the ${name} mutant is missing`);
  const result = await simulate(journal, scenario, { diskLane: true });
  const violations = judge(result);
  return { result, violations, html: timelineHtml(result, violations, `durasim: ${name}`) };
}

const entry = (seq: number, actor: string, incarnation?: number): TraceEntry => ({ seq, timeMs: 0, actor, ...(incarnation === undefined ? {} : { incarnation, step: seq, globalStep: seq }), op: 'fs.write', detail: 'journal.jsonl' });

describe('timeline rows', () => {
  test('lanes: supervisor, then workers by pid and incarnation as numbers, then user, service, disk', () => {
    const trace = [entry(0, 'worker-1', 0), entry(1, 'worker-0', 1), entry(2, 'service'), entry(3, 'worker-10', 0), entry(4, 'worker-0', 0), entry(5, 'worker-2', 0)];
    expect(lanesOf(trace)).toEqual(['supervisor', 'worker-0#0', 'worker-0#1', 'worker-1#0', 'worker-2#0', 'worker-10#0', 'user', 'service', 'disk']);
  });

  test('a long uneventful run in one lane folds all but its first two and last rows; a linked row is never folded', async () => {
    const { result } = await mutantTimeline('no-fsync');
    const rows = timelineRows(result, [], new Set());
    expect(rows.rows).toBe(result.trace.length);
    expect(rows.folded).toBeGreaterThan(0);
    expect(rows.html.match(/<tr [^>]*id="seq-\d+"/g)?.length).toBe(result.trace.length);
    expect(rows.html.match(/data-folded="1"/g)?.length).toBe(rows.folded);
    const allLinked = timelineRows(result, [], new Set(result.trace.map((e) => e.seq)));
    expect(allLinked.folded).toBe(0);
    expect(FOLD_AT).toBeGreaterThan(3);
  });

  test('"set off by" says what the trace and a replay show, word for word, and never that a fault-free run shows what no replay showed', () => {
    const v = { code: 'write-ahead', key: 'post-a', step: 30, expected: '', actual: '', evidence: [] } as never;
    const crash: TraceEntry = { seq: 12, timeMs: 0, actor: 'supervisor', op: 'crash', detail: 'worker-0#0 after step 9' };
    expect(setOffBy(v, crash, 1, undefined)).toEqual({ text: '#12 crash worker-0#0 after step 9', seq: 12 });
    expect(setOffBy(v, undefined, 0, undefined)).toEqual({ text: 'no fault: the scenario has none' });
    expect(setOffBy(v, undefined, 2, ['write-ahead'])).toEqual({ text: "no fault: with the scenario's faults removed, a replay breaks write-ahead too" });
    // The case the old text got wrong: no fault marked before it, yet the fault-free replay is clean.
    expect(setOffBy(v, undefined, 2, [])).toEqual({ text: "no fault before #30, yet with the scenario's faults removed a replay keeps write-ahead: the faults count, from where the trace does not mark them" });
    expect(setOffBy(v, undefined, 2, undefined)).toEqual({ text: 'no fault before #30' });
  });

  test('the fault that set a violation off is the last fault at or before it naming its key', async () => {
    const { result, violations } = await mutantTimeline('retry-unsafe-write', (s) => s.faults.push({ kind: 'response', request: 0, fault: 'delay', delayMs: 10 }));
    const v = violations[0];
    if (!v) throw new Error('retry-unsafe-write shows no violation');
    const trigger = triggerOf(result.trace, v);
    expect(trigger?.seq).toBeLessThanOrEqual(v.step);
    expect(trigger?.op === 'crash' || /\[[a-z-]+\]/.test(trigger?.detail ?? '')).toBe(true);
  });

  test('is self-contained: no script, stylesheet or image is fetched', async () => {
    const { html } = await mutantTimeline('retry-unsafe-write');
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
  });
});

describe.skipIf(!haveBrowser)('timeline.html in headless Chromium', () => {
  let browser: Browser;
  const dir = process.env.DURASIM_SCREENSHOT_DIR ?? join(ROOT, 'reports/out');
  const open = async (html: string) => {
    const page = join(mkdtempSync(join(tmpdir(), 'durasim-timeline-')), 'timeline.html');
    writeFileSync(page, html);
    const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const requests: string[] = [];
    tab.on('request', (r) => requests.push(r.url()));
    await tab.goto(pathToFileURL(page).href);
    return { tab, requests };
  };

  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => browser?.close());

  test('lanes, legend, markers, the disk lane at the violating step, folds, counts, hover and links', async () => {
    const { result, violations, html } = await mutantTimeline('no-fsync');
    const { tab, requests } = await open(html);
    expect(await tab.locator('th.lane').allTextContents()).toEqual(['supervisor', 'worker-0#0', 'user', 'service', 'disk']);
    expect(await tab.locator('.legend > span').count()).toBe(9);
    expect(await tab.locator('ol.violations > li').count()).toBe(violations.length);
    // The write-ahead violation: the journal's log visible, not durable, at the violating step.
    const first = tab.locator('ol.violations > li').first();
    expect(await first.locator('.what').textContent()).toMatch(/^write-ahead/);
    expect(await first.locator('.disk-then .file.unsynced').first().textContent()).toMatch(/^journal\.jsonl \d+ B visible · 0 B durable$/);
    expect(await tab.locator('td .disk-state .file').count()).toBeGreaterThan(3);
    // Counts agree: one row per trace entry, as the header says; folded rows hidden until opened.
    expect(await tab.locator('tr[id^="seq-"]').count()).toBe(result.trace.length);
    const header = (await tab.locator('.meta').textContent()) ?? '';
    expect(header).toContain(`${result.trace.length} rows, one per trace entry`);
    const folded = await tab.locator('tr[data-folded]').count();
    expect(folded).toBeGreaterThan(0);
    expect(header).toContain(`${folded} folded`);
    expect(await tab.locator('tr[data-folded]').first().isVisible()).toBe(false);
    await tab.locator('tr.fold-toggle label').first().click();
    expect(await tab.locator('tr[data-folded]').first().isVisible()).toBe(true);
    // Hover: the title holds the whole entry, the cell may cut it.
    const cell = tab.locator(`#seq-${result.trace.findIndex((e) => e.op.startsWith('fs.appendFile'))} .event`);
    expect(await cell.getAttribute('title')).toMatch(/^#\d+ · \d+ ms · worker-0#0 · step \d+ \(global \d+\) · fs\.appendFile journal\.jsonl/);
    // Links: to the violating row, to the cause, and every target exists.
    const second = tab.locator('ol.violations > li').nth(1);
    expect(await second.locator('.links').textContent()).toMatch(/^follows from: write-ahead at #\d+ · set off by no fault/);
    for (const href of await tab.locator('ol.violations a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
      expect(await tab.locator(href as string).count()).toBe(1);
    }
    expect(requests.every((url) => url.startsWith('file:'))).toBe(true);
    await tab.close();
  });

  test('a fault-set violation links to its fault; every mutant family shows its violation (screenshots with DURASIM_SCREENSHOT_DIR)', async () => {
    const { html } = await mutantTimeline('retry-unsafe-write', (s) => s.faults.push({ kind: 'response', request: 0, fault: 'delay', delayMs: 10 }));
    const { tab } = await open(html);
    expect(await tab.locator('.marker.crash').count()).toBe(1);
    expect(await tab.locator('ol.violations .links').first().textContent()).toMatch(/set off by: #\d+ /);
    await tab.close();
    const families = new Map<string, string>();
    for (const m of MUTANTS) if (!families.has(m.breaks[0] as string)) families.set(m.breaks[0] as string, m.journal.name);
    expect(families.size).toBeGreaterThanOrEqual(5);
    for (const [family, name] of families) {
      const shown = await mutantTimeline(name);
      expect(shown.violations.length, name).toBeGreaterThan(0);
      expect(shown.html.match(/class="event[^"]*\bviolation\b/g)?.length ?? 0, name).toBeGreaterThan(0);
      // A screenshot per family is for a person to look at: taken only when asked for (it costs seconds each).
      if (process.env.DURASIM_SCREENSHOT_DIR === undefined) continue;
      const page = await open(shown.html);
      const violation = page.tab.locator('.event.violation').first();
      if ((await violation.count()) > 0) await violation.scrollIntoViewIfNeeded();
      const shot = join(dir, `timeline-${family}.png`);
      await page.tab.screenshot({ path: shot });
      expect(existsSync(shot)).toBe(true);
      await page.tab.close();
    }
  });
});
