import { endStep, lostBy, type DurabilityGap, type JudgeInput, type Records } from '../evidence.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

const DELIVERIES = new Set(['fs.writeFile', 'fh.writeFile', 'fs.appendFile', 'fh.appendFile', 'fs.rename', 'fs.link']);

/**
 * file-truth, on the durable image after every crash and at the end (durable and visible):
 * - a file whose record says applied holds its candidate — a base it could have been read from
 *   (the original text, or a text the user saved) plus the edit — unless the user saved it after
 *   the journal's last write to it;
 * - whatever a delivery leaves is never empty, torn or cut from its original content: the file
 *   holds a base, or a base plus edits of the task. Missing is allowed only mid-run (moved
 *   aside); at the end of a completed run a file that existed is still there (a run stopped by its
 *   bounds may have stopped mid-delivery: that is convergence's finding, not this one's).
 */
export function checkFileTruth(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
  const reported = new Set<string>();
  const edits = [...input.scenario.task.operations, ...(input.scenario.taskAfterRestart?.operations ?? [])].filter((op) => op.kind === 'edit' && op.path !== undefined);
  const paths = [...new Set(edits.map((op) => op.path as string))];
  if (paths.length === 0) return [];
  const end = endStep(input);
  const completed = input.outcome.kind === 'completed';
  const images: { label: string; seq: number; records: Records; files: Record<string, string | undefined> | undefined; atEnd: boolean; gaps?: DurabilityGap[] }[] = [
    ...input.crashes.map((c, i) => ({ label: `durable image after crash ${i + 1}`, seq: c.seq, records: c.records, files: c.files, atEnd: false, gaps: c.gaps ?? [] })),
    { label: 'durable image at the end', seq: end, records: input.final.durable, files: input.final.durableFiles, atEnd: true },
    { label: 'files at the end', seq: end, records: input.final.visible, files: input.final.files, atEnd: true },
  ];
  for (const image of images) {
    if (image.files === undefined) continue;
    for (const path of paths) {
      const content = image.files[path];
      const bases = basesOf(input, path, image.seq);
      const appends = [...new Set(edits.filter((op) => op.path === path).map((op) => op.append ?? ''))];
      const shown = (text: string | undefined): string => (text === undefined ? 'missing' : text === '' ? 'empty' : JSON.stringify(text));
      // Integrity: what any delivery may leave.
      const existed = bases.some((b) => b !== undefined);
      const whole = content === undefined ? !(image.atEnd && completed && existed) : bases.some((b) => decomposes(content, b ?? '', appends));
      if (!whole && !reported.has(`${path}/whole`)) {
        reported.add(`${path}/whole`);
        violations.push({
          code: 'file-truth',
          key: path,
          step: image.seq,
          expected: `${path} to hold its text${bases.length > 1 ? ' (or a text the user saved)' : ''}, with or without the task's edits: ${bases.filter((b) => b !== undefined).map((b) => JSON.stringify(b)).join(' or ')}`,
          actual: `it is ${shown(content)} on the ${image.label}${lostBy(image.gaps, path)}`,
          evidence: { at: image.label, found: content, bases: bases.filter((b) => b !== undefined), appends, missing: (image.gaps ?? []).filter((g) => g.path === path) },
        });
        continue;
      }
      // Claims: applied means the edit is there.
      for (const [key, record] of Object.entries(image.records)) {
        if (record.kind !== 'file' || record.path !== path || record.history.at(-1) !== 'applied' || reported.has(`${key}/applied`)) continue;
        const append = edits.find((op) => op.key === key)?.append;
        if (append === undefined) continue;
        if (content !== undefined && bases.some((b) => holdsEdit(content, b ?? '', appends, append))) continue;
        if (userSavedLast(input, path, image.seq, content)) continue;
        reported.add(`${key}/applied`);
        const expected = bases.filter((b) => b !== undefined || !existed).map((b) => JSON.stringify((b ?? '') + append));
        violations.push({
          code: 'file-truth',
          key,
          step: image.seq,
          expected: `${path} recorded ${words.entry(record, record.history.length - 1)} to hold the edit: ${expected.join(' or ')}`,
          actual: `it is ${shown(content)} on the ${image.label}${lostBy(image.gaps, path)}`,
          evidence: { at: image.label, path, found: content, expected, history: record.history, missing: (image.gaps ?? []).filter((g) => g.path === path) },
        });
      }
    }
  }
  return violations;
}

/** The texts the file may have been read from by `seq`: its original text and every user save. */
function basesOf(input: JudgeInput, path: string, seq: number): (string | undefined)[] {
  const original = input.scenario.files?.[path];
  return [original, ...input.userEdits.filter((u) => u.path === path && u.seq <= seq).map((u) => u.text)];
}

/** Whether `content` is `base` followed by some of `appends`, each at most once, in any order. */
function decomposes(content: string, base: string, appends: readonly string[]): boolean {
  if (!content.startsWith(base)) return false;
  const rest = (text: string, left: readonly string[]): boolean =>
    text === '' || left.some((a, i) => a !== '' && text.startsWith(a) && rest(text.slice(a.length), left.filter((_, j) => j !== i)));
  return rest(content.slice(base.length), appends);
}

function holdsEdit(content: string, base: string, appends: readonly string[], append: string): boolean {
  if (!decomposes(content, base, appends)) return false;
  return append === '' || content.slice(base.length).includes(append);
}

/** The user's save is the file's last word: it came after the journal's last write to the file. */
function userSavedLast(input: JudgeInput, path: string, seq: number, content: string | undefined): boolean {
  const save = input.userEdits.filter((u) => u.path === path && u.seq <= seq).at(-1);
  if (save === undefined || save.text !== content) return false;
  const lastWrite = input.trace.filter((e) => e.seq <= seq && e.actor.startsWith('worker-') && DELIVERIES.has(e.op) && (e.detail.startsWith(`${path} `) || e.detail.endsWith(`→ ${path}`))).at(-1);
  return lastWrite === undefined || save.seq > lastWrite.seq;
}
