/**
 * I/O errors as Node reports them: an Error whose message, `code`, `errno` and `syscall` match what
 * node:fs throws on Linux (`EIO: i/o error, fsync`).
 */
export const IO_ERROR_CODES = ['EIO', 'ENOSPC'] as const;
export type IoErrorCode = (typeof IO_ERROR_CODES)[number];

const DESCRIPTION: Record<IoErrorCode, { errno: number; text: string }> = {
  EIO: { errno: -5, text: 'i/o error' },
  ENOSPC: { errno: -28, text: 'no space left on device' },
};

export function ioError(code: IoErrorCode, syscall: string, path?: string): Error & { code: string; errno: number; syscall: string; path?: string } {
  const { errno, text } = DESCRIPTION[code];
  const error = Object.assign(new Error(`${code}: ${text}, ${syscall}${path !== undefined ? ` '${path}'` : ''}`), { code, errno, syscall });
  return path !== undefined ? Object.assign(error, { path }) : error;
}
