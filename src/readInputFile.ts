/**
 * How durasim reads a file it is given: a scenario, a regression, the config, a task, a journal's
 * module, a summary to merge. Only a regular file is read: a FIFO would block the read forever,
 * /dev/zero or /dev/urandom never end (their size says 0), a folder is no file — each is refused by
 * name, at once. The file is opened without blocking (a FIFO with no writer would hold the open),
 * fstat'ed, and read up to its limit and no further: the size stat() gives is no bound (a file can
 * grow while it is read, and /proc's say 0).
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { DurasimError } from '../model/contract/failure.js';

/** What a file that is not a regular file is ("a FIFO"), or undefined for a regular file. */
export function notAFile(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (a named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'a special file';
}

const refusalOf = (file: string, kind: string): string => `${file} is ${kind}, not a file`;

/** The refusal of a path that is not a regular file: `<shown> is a character device, not a file`; undefined for a regular file or one that is not there. */
export function notAFileReason(path: string, shown: string = path): string | undefined {
  const kind = kindOf(path);
  return kind === undefined ? undefined : refusalOf(shown, kind);
}

/** notAFile of the path's stat; undefined for a regular file or one that is not there (missing or unreadable: the caller says so in its own words). */
function kindOf(path: string): string | undefined {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined;
  }
  return notAFile(stats);
}

export interface InputFile {
  /** The file as the messages name it (as the user gave it, say); default: the path read. */
  shown?: string;
  /** The action of the messages: "read the scenario", "read the config". */
  action: string;
  /** How to put it right when the file cannot be read or is not a file. */
  fix: string;
  /** The most bytes read; a longer file is refused with `tooLarge`. */
  limitBytes: number;
  /** The refusal of a file over the limit; `size` says how large: "40000000 bytes", or "more than 33554432 bytes" when it grew past what fstat said. */
  tooLarge: (size: string) => DurasimError;
}

/** The file's text (UTF-8), read as the module's rules say; every problem a DurasimError. */
export function readInputFile(path: string, input: InputFile): string {
  const file = input.shown ?? path;
  const refusal = (reason: string): DurasimError => new DurasimError(input.action, reason, input.fix);
  const unreadable = (error: unknown): DurasimError => refusal(`${file} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  // Before the open: a socket cannot be opened at all, and a FIFO's kind is worth saying before anything.
  const kindBefore = kindOf(path);
  if (kindBefore !== undefined) throw refusal(refusalOf(file, kindBefore));
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw unreadable(error);
  }
  try {
    const stats = fstatSync(fd);
    const kind = notAFile(stats); // swapped for another kind of file since the stat
    if (kind !== undefined) throw refusal(refusalOf(file, kind));
    if (stats.size > input.limitBytes) throw input.tooLarge(`${stats.size} bytes`);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, input.limitBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > input.limitBytes) throw input.tooLarge(`more than ${input.limitBytes} bytes`);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } catch (error) {
    if (error instanceof DurasimError) throw error;
    throw unreadable(error);
  } finally {
    closeSync(fd);
  }
}
