/**
 * A timeline cell cut to its first characters opens onto the whole call (issue 54, item 6): a
 * <details> whose summary is the cell and whose body is the entry in full, with the whole data a
 * step wrote where the trace shows only its first 120 characters. No script.
 */
import { describe, expect, test } from 'vitest';
import type { JournalAdapter } from '../../model/contract/contract.js';
import { judge } from '../../model/judge.js';
import { simulate } from '../../simulator/simulate.js';
import { baseScenario } from '../arbitraries.js';
import { timelineHtml } from './timeline.js';
import { escapeHtml } from './timelineRows.js';

const RECORD = `${JSON.stringify({ key: 'post-a', state: 'authorized', note: 'n'.repeat(260), end: 'the last words of the record' })}\n`;

const writesALongRecord: JournalAdapter = {
  name: 'writes-a-long-record',
  async run(env) {
    const log = await env.fs.open('journal.log', 'a');
    await log.appendFile(RECORD);
    await log.sync();
    await log.close();
  },
  inspect: () => ({}),
};

describe('a timeline cell', () => {
  test('cut to its first characters, it opens onto the whole call: the whole record written, not the trace\'s first 120 characters', async () => {
    const result = await simulate(writesALongRecord, baseScenario([{ kind: 'publish', key: 'post-a', body: 'a' }]), { wholeCalls: true });
    const append = result.trace.find((e) => e.op === 'fh.appendFile');
    if (!append) throw new Error('no append in the trace');
    expect(append.detail.length).toBeLessThan(RECORD.length);
    const html = timelineHtml(result, judge(result), 'a long record');
    const row = new RegExp(`<tr id="seq-${append.seq}"[^]*?</tr>`).exec(html)?.[0] ?? '';
    expect(row).toMatch(/<details class="event[^"]*"[^>]*><summary><span class="step">\d+<\/span> <b>fh\.appendFile<\/b> journal\.log &quot;/);
    expect(row).toContain(`<div class="call">${escapeHtml(`#${append.seq} · ${append.timeMs} ms · worker-0#0 · step ${append.step} (global ${append.globalStep}) · fh.appendFile journal.log ${JSON.stringify(RECORD)}`)}</div></details>`);
    // A call its cell shows whole stays a plain cell.
    const close = result.trace.find((e) => e.op === 'fh.close');
    expect(new RegExp(`<tr id="seq-${close?.seq}"[^]*?</tr>`).exec(html)?.[0]).toMatch(/<div class="event[^"]*" title="[^"]*"><span class="step">\d+<\/span> <b>fh\.close<\/b> journal\.log<\/div>/);
    expect(html).not.toMatch(/<script/i);
  });
});
