import { describe, expect, test } from 'vitest';
import { checkNoSilentOverwrite } from './noSilentOverwrite.js';
import { finalRecords, run } from './fixtures.js';

const edit = { seq: 20, timeMs: 5, path: 'notes.md', text: 'user text\n' };
const trace = Array.from({ length: 60 }, (_, seq) =>
  seq === 31 ? { seq, actor: 'worker-0', op: 'fs.rename', detail: 'notes.md.tmp → notes.md' } : { seq, actor: 'worker-0', op: 'clock.now', detail: '' });

describe('no-silent-overwrite', () => {
  test('fires when the user text is gone and no conflict preserved it, pointing at the overwrite', () => {
    const violations = checkNoSilentOverwrite(run({
      trace,
      userEdits: [edit],
      final: finalRecords({ e: { kind: 'file', path: 'notes.md', history: ['read', 'applied'], preserved: [] } }, { 'notes.md': '# Notes\nagent line\n' }),
    }));
    expect(violations).toEqual([expect.objectContaining({ code: 'no-silent-overwrite', key: 'notes.md', step: 31 })]);
    expect(violations[0]?.evidence).toMatchObject({ userEdit: edit, finalFile: '# Notes\nagent line\n' });
  });

  test('holds when the text survives in the file', () => {
    expect(checkNoSilentOverwrite(run({ userEdits: [edit], final: finalRecords({}, { 'notes.md': 'user text\nagent line\n' }) }))).toEqual([]);
  });

  test('holds when a conflict preserved the text', () => {
    const records = { e: { kind: 'file' as const, path: 'notes.md', history: ['read', 'conflict'], preserved: ['user text\n'] } };
    expect(checkNoSilentOverwrite(run({ userEdits: [edit], final: finalRecords(records, { 'notes.md': 'other' }) }))).toEqual([]);
  });

  test('holds when the user replaced their own text later', () => {
    const later = { seq: 40, timeMs: 9, path: 'notes.md', text: 'second save\n' };
    expect(checkNoSilentOverwrite(run({ userEdits: [edit, later], final: finalRecords({}, { 'notes.md': 'second save\n' }) }))).toEqual([]);
  });

  test('a file moved aside and never put back: a finding when the run completed, convergence\'s when the bounds stopped it', () => {
    const movedAside = Array.from({ length: 60 }, (_, seq) => (seq === 31 ? { seq, actor: 'worker-0', op: 'fs.rename', detail: 'notes.md → notes.md.aside' } : { seq, actor: 'worker-0', op: 'clock.now', detail: '' }));
    const input = { trace: movedAside, userEdits: [edit], final: finalRecords({}, { 'notes.md': undefined }) };
    expect(checkNoSilentOverwrite(run(input))).toEqual([expect.objectContaining({ code: 'no-silent-overwrite', actual: 'the file is gone and no conflict preserved the text' })]);
    expect(checkNoSilentOverwrite(run({ ...input, outcome: { kind: 'bounds-exceeded', bound: 'incarnations', detail: 'x' } }))).toEqual([]);
    // Written over, then gone: a finding even when the bounds stopped the run.
    expect(checkNoSilentOverwrite(run({ trace, userEdits: [edit], final: finalRecords({}, { 'notes.md': undefined }), outcome: { kind: 'bounds-exceeded', bound: 'incarnations', detail: 'x' } }))).toHaveLength(1);
  });
});
