/**
 * File-system errors as Node reports them on Linux: an Error whose message, `code`, `errno` and
 * `syscall` match what node:fs throws (`EIO: i/o error, fsync`, `EPERM: operation not permitted,
 * link 'a' -> 'b'`). memfs raises most of them itself; these are the ones the disk raises.
 */
export { IO_ERROR_CODES, type IoErrorCode } from '../scenario/scenarioFaults.js';

const DESCRIPTION = {
  EIO: { errno: -5, text: 'i/o error' },
  ENOENT: { errno: -2, text: 'no such file or directory' },
  ENOSPC: { errno: -28, text: 'no space left on device' },
  EBADF: { errno: -9, text: 'bad file descriptor' },
  EINVAL: { errno: -22, text: 'invalid argument' },
  EPERM: { errno: -1, text: 'operation not permitted' },
  EEXIST: { errno: -17, text: 'file already exists' },
  ENOTDIR: { errno: -20, text: 'not a directory' },
  EISDIR: { errno: -21, text: 'illegal operation on a directory' },
  ENOTEMPTY: { errno: -39, text: 'directory not empty' },
  ENAMETOOLONG: { errno: -36, text: 'name too long' },
} as const;
export type FsErrorCode = keyof typeof DESCRIPTION;

/** Whether an error is one of the file-system errors this module can say again under another call's name. */
export const isFsErrorCode = (code: unknown): code is FsErrorCode => typeof code === 'string' && Object.hasOwn(DESCRIPTION, code);

export function ioError(code: FsErrorCode, syscall: string, path?: string, dest?: string): Error & { code: string; errno: number; syscall: string; path?: string } {
  const { errno, text } = DESCRIPTION[code];
  const where = path === undefined ? '' : dest === undefined ? ` '${path}'` : ` '${path}' -> '${dest}'`;
  const error = Object.assign(new Error(`${code}: ${text}, ${syscall}${where}`), { code, errno, syscall });
  return path !== undefined ? Object.assign(error, { path }) : error;
}
