import { describe, expect, test } from 'vitest';
import { preview, type TraceEntry } from './trace.js';
import { WHOLE_CALL_CHARS, wholeCalls } from './wholeCalls.js';

const step = (seq: number, op: string, detail: string): TraceEntry => ({ seq, timeMs: 0, actor: 'worker-0', incarnation: 0, step: seq, globalStep: seq, op, detail });

describe('wholeCalls', () => {
  test('gives each entry whose data the trace cut its whole data: matched by its preview, even when a pause held the write past later entries', () => {
    const a = `a${'x'.repeat(200)}`;
    const b = `b${'y'.repeat(200)}`;
    const trace = [step(0, 'fh.appendFile', `log ${preview(a)}`), step(1, 'fh.writeFile', `other ${preview(b)}`), step(2, 'fh.sync', 'log'), step(3, 'fh.appendFile', 'log "short"')];
    // b's bytes were written first (a's step was paused), each tagged with the trace's length then.
    const whole = wholeCalls(trace, ['2:', b, '3:', Buffer.from(a), '4:', 'short'], (t) => t);
    expect(whole).toEqual({ 0: `log ${JSON.stringify(a)}`, 1: `other ${JSON.stringify(b)}` });
  });

  test('masks as the trace does, and keeps the first WHOLE_CALL_CHARS characters, the rest counted', () => {
    const long = `secret-token ${'z'.repeat(WHOLE_CALL_CHARS + 50)}`;
    const mask = (t: string): string => t.replaceAll('secret-token', '«secret»');
    const whole = wholeCalls([step(0, 'fh.appendFile', `log ${mask(preview(long))}`)], ['1:', long], mask);
    expect(whole[0]).toBe(`log ${JSON.stringify(mask(long.slice(0, WHOLE_CALL_CHARS)))} … (${long.length - WHOLE_CALL_CHARS} more characters)`);
  });
});
