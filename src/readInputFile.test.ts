import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DurasimError } from '../model/contract/failure.js';
import { notAFileReason, readInputFile, type InputFile } from './readInputFile.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fifo = join(dir, 'scenario.json');
execFileSync('mkfifo', [fifo]);

const input = (limitBytes: number): InputFile => ({
  action: 'read the scenario',
  fix: 'Pass the path of a scenario file',
  limitBytes,
  tooLarge: (size) => new DurasimError('read the scenario', `it is ${size}, over the limit of ${limitBytes}`, 'Shorten it'),
});
const refusal = (path: string, limitBytes = 1024, shown?: string): string => {
  try {
    return `read: ${readInputFile(path, { ...input(limitBytes), ...(shown !== undefined ? { shown } : {}) }).length} characters`;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('readInputFile: only a regular file, and no more of it than the limit', () => {
  test('a FIFO (no writer: the open would block), /dev/zero and /dev/urandom (endless, "0 bytes" by stat) and a folder are refused by name, at once', () => {
    expect(refusal(fifo)).toBe(`Failed to read the scenario: ${fifo} is a FIFO (a named pipe), not a file. Pass the path of a scenario file.`);
    expect(refusal('/dev/zero')).toBe('Failed to read the scenario: /dev/zero is a character device, not a file. Pass the path of a scenario file.');
    expect(refusal('/dev/urandom')).toBe('Failed to read the scenario: /dev/urandom is a character device, not a file. Pass the path of a scenario file.');
    expect(refusal(dir)).toBe(`Failed to read the scenario: ${dir} is a folder, not a file. Pass the path of a scenario file.`);
    expect(refusal(fifo, 1024, 'scenario.json')).toBe('Failed to read the scenario: scenario.json is a FIFO (a named pipe), not a file. Pass the path of a scenario file.');
    expect(notAFileReason('/dev/null', 'the null device')).toBe('the null device is a character device, not a file');
    expect(notAFileReason(join(dir, 'missing'))).toBeUndefined();
  });

  test('a missing file says its code; a regular file is read whole up to the limit, and one past it refused', () => {
    expect(refusal(join(dir, 'missing.json'))).toBe(`Failed to read the scenario: ${join(dir, 'missing.json')} could not be read (ENOENT). Pass the path of a scenario file.`);
    const file = join(dir, 'a.json');
    writeFileSync(file, 'é'.repeat(512)); // 1,024 bytes
    expect(refusal(file, 1024)).toBe('read: 512 characters');
    expect(refusal(file, 1023)).toBe('Failed to read the scenario: it is 1024 bytes, over the limit of 1023. Shorten it.');
  });

  test('the limit is of bytes read, not of what stat says: a /proc file says 0 bytes and is read to its end, or refused past the limit', () => {
    expect(refusal('/proc/self/status', 1 << 20)).toMatch(/^read: \d{3,} characters$/);
    expect(refusal('/proc/self/status', 10)).toBe('Failed to read the scenario: it is more than 10 bytes, over the limit of 10. Shorten it.');
  });
});
