import { describe, expect, test } from 'vitest';
import type { FileHistory, JudgeInput } from '../evidence.js';
import { checkFileTruth } from './fileTruth.js';
import { crash, finalRecords, run } from './fixtures.js';

const ORIGINAL = '# Notes\n';
const EDIT = '- agent line\n';
const applied: FileHistory = { kind: 'file', path: 'notes.md', history: ['read', 'applied'], preserved: [] };
const read: FileHistory = { kind: 'file', path: 'notes.md', history: ['read'], preserved: [] };

function edited(patch: Parameters<typeof run>[0] = {}): JudgeInput {
  return run({ operations: [{ kind: 'edit', key: 'e', path: 'notes.md', append: EDIT }], scenario: { files: { 'notes.md': ORIGINAL } }, ...patch });
}
const ends = (records: Record<string, FileHistory>, text: string | undefined) => ({ ...finalRecords(records, { 'notes.md': text }), durableFiles: { 'notes.md': text } });

describe('file-truth', () => {
  test('fires when a durable applied record outlives the edit in a machine crash', () => {
    const violations = checkFileTruth(edited({
      crashes: [{ ...crash(40, { e: applied }), files: { 'notes.md': ORIGINAL } }],
      final: ends({ e: applied }, ORIGINAL),
    }));
    expect(violations).toEqual([expect.objectContaining({ code: 'file-truth', key: 'e', step: 40, actual: `it is ${JSON.stringify(ORIGINAL)} on the durable image after crash 1` })]);
    expect(violations[0]?.expected).toBe(`notes.md recorded applied to hold the edit: ${JSON.stringify(ORIGINAL + EDIT)}`);
  });

  test('fires on a file torn, emptied, or gone at the end', () => {
    const torn = checkFileTruth(edited({ crashes: [{ ...crash(30, { e: read }), files: { 'notes.md': '# No' } }], final: ends({ e: applied }, ORIGINAL + EDIT) }));
    expect(torn).toEqual([expect.objectContaining({ code: 'file-truth', key: 'notes.md', step: 30, actual: 'it is "# No" on the durable image after crash 1' })]);
    expect(checkFileTruth(edited({ final: ends({ e: read }, '') }))).toEqual([expect.objectContaining({ key: 'notes.md', actual: 'it is empty on the durable image at the end' })]);
    expect(checkFileTruth(edited({ final: ends({ e: read }, undefined) }))).toEqual([expect.objectContaining({ key: 'notes.md', actual: 'it is missing on the durable image at the end' })]);
    // A run its bounds stopped mid-delivery (the file moved aside) is convergence's finding, not a missing file.
    expect(checkFileTruth(edited({ outcome: { kind: 'bounds-exceeded', bound: 'steps' }, final: ends({ e: read }, undefined) }))).toEqual([]);
  });

  test('holds for the candidate, for the original text before delivery, and for a file moved aside mid-run', () => {
    expect(checkFileTruth(edited({ final: ends({ e: applied }, ORIGINAL + EDIT) }))).toEqual([]);
    expect(checkFileTruth(edited({ crashes: [{ ...crash(30, { e: read }), files: { 'notes.md': undefined } }], final: ends({ e: read }, ORIGINAL) }))).toEqual([]);
  });

  test("holds for a candidate built on the user's save, and for a user's save made after the journal's last write", () => {
    const save = { seq: 20, timeMs: 0, path: 'notes.md', text: 'user text\n' };
    expect(checkFileTruth(edited({ userEdits: [save], final: ends({ e: applied }, `user text\n${EDIT}`) }))).toEqual([]);
    const trace = Array.from({ length: 100 }, (_, seq) => (seq === 10 ? { seq, actor: 'worker-0', op: 'fs.link', detail: 'notes.md.candidate-e → notes.md' } : { seq, actor: 'worker-0', op: 'clock.now', detail: '' }));
    expect(checkFileTruth(edited({ trace, userEdits: [save], final: ends({ e: applied }, 'user text\n') }))).toEqual([]);
    // The same save made before the journal's delivery does not excuse an applied that is not there.
    const early = { ...save, seq: 5 };
    expect(checkFileTruth(edited({ trace, userEdits: [early], final: ends({ e: applied }, 'user text\n') }))).toEqual([expect.objectContaining({ code: 'file-truth', key: 'e' })]);
  });
});
