/**
 * The workers' side files, as the parent reads them: each worker appends one JSON line per thing that
 * happened (protocol.ts); the parent reads what was appended since its last look, whole lines only
 * (a line a worker is still writing, or that a kill cut, waits for its end or is never read).
 */
import { readFileSync } from 'node:fs';
import type { SideLine } from './protocol.js';

export class SideFiles {
  /** Per side file: how many bytes of it were read (up to the end of its last whole line). */
  private readonly offsets = new Map<string, number>();

  /** The whole lines appended to `file` since the last call; none when it does not exist yet. */
  readNew(file: string): SideLine[] {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return [];
    }
    const from = this.offsets.get(file) ?? 0;
    const end = bytes.lastIndexOf(0x0a) + 1;
    if (end <= from) return [];
    this.offsets.set(file, end);
    return bytes.subarray(from, end).toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as SideLine);
  }
}
