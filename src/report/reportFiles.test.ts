import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPORT_FILES, removeStaleReports } from './reportFiles.js';

describe('a report folder keeps only what its last run wrote', () => {
  test("every report file but the run's own is removed, and said; the user's other files stay", () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-report-files-'));
    for (const name of [...REPORT_FILES, 'notes.md', 'out.xml']) writeFileSync(join(dir, name), 'old');
    expect(removeStaleReports(dir, ['summary.json', 'report.md', 'junit.xml'])).toEqual(['counterexample.json', 'timeline.html', 'harness-failure.json', 'coverage.md', 'coverage.json']);
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'notes.md', 'out.xml', 'report.md', 'summary.json']);
    expect(removeStaleReports(dir, [])).toEqual(['summary.json', 'report.md', 'junit.xml']);
    expect(readdirSync(dir).sort()).toEqual(['notes.md', 'out.xml']);
  });

  test('a folder that does not exist is no error', () => {
    expect(removeStaleReports(join(tmpdir(), 'durasim-no-such-folder', 'report'), [])).toEqual([]);
  });
});
