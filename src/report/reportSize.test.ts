/**
 * Reports stay short: a counterexample whose run is long — a journal retrying a refused request in a
 * loop until the step bound, which is also what broke — gives a report.md and a timeline.html of at
 * most REPORT_BYTES_MAX each, that still show where the run started and ended, every fault, and
 * the first and last time each invariant broke, and say where they left entries out.
 */
import { describe, expect, test } from 'vitest';
import type { JournalAdapter, JournalRecords } from '../../model/contract/contract.js';
import { judge } from '../../model/judge.js';
import { simulate } from '../../simulator/simulate.js';
import { baseScenario } from '../arbitraries.js';
import { reportMarkdown } from './markdown.js';
import { timelineHtml } from './timeline.js';
import { REPORT_ENTRIES_MAX } from './traceParts.js';

/** The size budget of each report file of one counterexample. */
const REPORT_BYTES_MAX = 200_000;

/** Records post-a dispatched, then sends it again and again, whatever the service says (a 400 here). */
const hammering: JournalAdapter = {
  name: 'retries-a-400-forever',
  async run(env, task) {
    const op = task.operations[0];
    if (op?.kind !== 'publish') return;
    await env.fs.writeFile('journal.log', `${op.key} authorized\n${op.key} dispatched\n`);
    for (;;) {
      const response = await env.fetch(`${task.service.url}/operations/${op.key}`, { method: 'POST', body: op.body, headers: { 'idempotency-key': op.key } });
      if (response.status === 201) return;
      await env.clock.sleep(10);
    }
  },
  inspect: (disk): JournalRecords => (disk.readFile('journal.log') === undefined ? {} : { 'post-a': { kind: 'operation', history: ['authorized', 'dispatched'] } }),
};

describe('report size', () => {
  test(`a long counterexample's report.md and timeline.html stay under ${REPORT_BYTES_MAX / 1000} kB each, landmarks kept`, async () => {
    const scenario = { ...baseScenario([{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }]), faults: [{ kind: 'response' as const, request: 0, fault: 'invalid-argument' as const }] };
    const result = await simulate(hammering, scenario);
    const violations = judge(result);
    expect(result.trace.length).toBeGreaterThan(4 * REPORT_ENTRIES_MAX);
    expect(new Set(violations.map((v) => v.code))).toContain('failure-class-respected');
    const repeats = violations.filter((v) => v.code === 'failure-class-respected');
    expect(repeats.length).toBeGreaterThan(100);
    const markdown = reportMarkdown({ command: 'replay', journal: hammering.name, journalSpec: 'hammering.ts', runsExecuted: 1, elapsedMs: 1, verdict: 'safety', exitCode: 1, violations, result, counterexample: scenario });
    const html = timelineHtml(result, violations, 'hammering');
    expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(REPORT_BYTES_MAX);
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(REPORT_BYTES_MAX);
    const [first, last] = [Math.min(...repeats.map((v) => v.step)), Math.max(...repeats.map((v) => v.step))];
    // The start, the end, and the first and last of the repeated violation are there; the gaps are said.
    expect(markdown).toContain('supervisor start worker-0#0');
    expect(markdown).toMatch(/supervisor stop bounds-exceeded/);
    expect(markdown).toMatch(new RegExp(`^>> +${first} `, 'm'));
    expect(markdown).toMatch(new RegExp(`^>> +${last} `, 'm'));
    for (const seq of [0, first, last, result.trace.length - 1]) expect(html, `#${seq}`).toContain(`id="seq-${seq}"`);
    for (const text of [markdown, html]) expect(text).toMatch(/entries \(#\d+–#\d+\) not shown: a long run(&#39;|')s report keeps its start, its end and its landmarks/);
    // Repeats fold into one line with a count and the last occurrence.
    expect(markdown).toMatch(new RegExp(`failure-class-respected \\[post-a\\].*\\(and ${repeats.length - 1} more failure-class-respected \\[post-a\\], the last at #${Math.max(...repeats.map((v) => v.step))}\\)`));
  });
});
