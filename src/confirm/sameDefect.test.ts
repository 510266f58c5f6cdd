import { describe, expect, test } from 'vitest';
import { INVARIANT_CODES, invariantKind } from '../../model/violation.js';
import { CONSEQUENCES, defectShown } from './sameDefect.js';

describe('which real violation shows the simulated defect', () => {
  test('a duplicate send is one defect, whichever of its five invariants shows it', () => {
    const duplicate = ['single-flight', 'no-blind-retry', 'one-effect-per-key', 'completed-replayed', 'retry-safe-only'] as const;
    for (const simulated of duplicate) for (const real of duplicate) expect(defectShown(real, [simulated])).toBe(simulated);
  });

  test('a cause confirms by its consequences, never the other way round', () => {
    expect(defectShown('one-effect-per-key', ['write-ahead'])).toBe('write-ahead');
    expect(defectShown('no-state-skip', ['write-ahead'])).toBe('write-ahead');
    expect(defectShown('write-ahead', ['no-state-skip'])).toBeUndefined();
    expect(defectShown('single-flight', ['cas-loser-stops'])).toBe('cas-loser-stops');
    expect(defectShown('cas-loser-stops', ['single-flight'])).toBeUndefined();
    expect(defectShown('file-truth', ['no-silent-overwrite'])).toBe('no-silent-overwrite');
    expect(defectShown('cancel-truth', ['no-effect-after-cancel'])).toBe('no-effect-after-cancel');
  });

  test('the invariant itself always; an unrelated one never; the simulated one is named before a cause', () => {
    expect(defectShown('failure-class-respected', ['failure-class-respected'])).toBe('failure-class-respected');
    expect(defectShown('no-secret-persisted', ['write-ahead', 'single-flight'])).toBeUndefined();
    expect(defectShown('one-effect-per-key', ['write-ahead', 'one-effect-per-key'])).toBe('one-effect-per-key');
  });

  test('every consequence is a safety invariant, and so is every cause', () => {
    for (const [cause, consequences] of Object.entries(CONSEQUENCES)) {
      expect(INVARIANT_CODES).toContain(cause);
      expect(invariantKind(cause as (typeof INVARIANT_CODES)[number])).toBe('safety');
      for (const code of consequences ?? []) expect(invariantKind(code)).toBe('safety');
    }
  });
});
