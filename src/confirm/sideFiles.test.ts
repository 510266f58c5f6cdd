import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SideFiles } from './sideFiles.js';

describe('a worker side file, as the parent reads it', () => {
  test('gives what was appended since the last look, whole lines only, and nothing for a file not there yet', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'durasim-side-')), '0-0.jsonl');
    const side = new SideFiles();
    expect(side.readNew(file)).toEqual([]);
    appendFileSync(file, `${JSON.stringify({ type: 'step', step: 0, op: 'fs.open', detail: 'a é' })}\n{"type":"st`);
    expect(side.readNew(file)).toEqual([{ type: 'step', step: 0, op: 'fs.open', detail: 'a é' }]);
    expect(side.readNew(file)).toEqual([]); // the cut line is not read until it ends
    appendFileSync(file, 'ep","step":1,"op":"fs.close","detail":"a"}\n');
    expect(side.readNew(file)).toEqual([{ type: 'step', step: 1, op: 'fs.close', detail: 'a' }]);
  });
});
