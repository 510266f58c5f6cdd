/**
 * node:fs's arguments as Node reads them: data (string with an encoding, Buffer, TypedArray,
 * DataView), options (an encoding string, or { encoding, flag, recursive, withFileTypes }), open
 * flags (strings and their numeric forms), and the Dirent shape readdir returns.
 */
import { constants } from 'node:fs'; // allow-ambient: flag constants, no I/O

export function invalidArg(name: string, expected: string, value: unknown): Error {
  const received = value === null ? 'null' : typeof value;
  return Object.assign(new TypeError(`The "${name}" argument must be ${expected}. Received ${received}`), { code: 'ERR_INVALID_ARG_TYPE' });
}

export function encodingOf(options: unknown): BufferEncoding | undefined {
  if (typeof options === 'string') return options as BufferEncoding;
  const encoding = (options as { encoding?: unknown } | null | undefined)?.encoding;
  return typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined;
}

export function optionOf<T>(options: unknown, name: string, fallback: T): T {
  if (typeof options !== 'object' || options === null) return fallback;
  const value = (options as Record<string, unknown>)[name];
  return value === undefined ? fallback : (value as T);
}

export function bytesOf(data: unknown, encoding?: BufferEncoding): Buffer {
  if (typeof data === 'string') return Buffer.from(data, encoding ?? 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw invalidArg('data', 'of type string or an instance of Buffer, TypedArray, or DataView', data);
}

/** What a read returns: bytes, or text in the encoding asked for. */
export function decoded(bytes: Buffer, encoding: BufferEncoding | undefined): Buffer | string {
  return encoding === undefined || (encoding as string) === 'buffer' ? bytes : bytes.toString(encoding);
}

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_APPEND } = constants;
const NUMERIC: [number, string][] = [
  [O_RDONLY, 'r'], [O_RDWR, 'r+'],
  [O_WRONLY | O_CREAT | O_TRUNC, 'w'], [O_WRONLY | O_CREAT | O_TRUNC | O_EXCL, 'wx'], [O_WRONLY | O_CREAT | O_EXCL, 'wx'],
  [O_RDWR | O_CREAT | O_TRUNC, 'w+'], [O_RDWR | O_CREAT | O_TRUNC | O_EXCL, 'wx+'],
  [O_WRONLY | O_CREAT | O_APPEND, 'a'], [O_WRONLY | O_CREAT | O_APPEND | O_EXCL, 'ax'],
  [O_RDWR | O_CREAT | O_APPEND, 'a+'], [O_RDWR | O_CREAT | O_APPEND | O_EXCL, 'ax+'],
];
const ALIASES: Record<string, string> = { xw: 'wx', 'xw+': 'wx+', xa: 'ax', 'xa+': 'ax+', sa: 'as', 'sa+': 'as+', sr: 'rs', 'sr+': 'rs+' };
const SERVED_FLAGS = new Set(['r', 'rs', 'r+', 'rs+', 'w', 'wx', 'w+', 'wx+', 'a', 'ax', 'a+', 'ax+', 'as', 'as+']);

/** An open flag in its canonical string form. */
export function openFlags(flags: unknown, fallback = 'r'): string {
  if (flags === undefined || flags === null) return fallback;
  const named = typeof flags === 'number' ? NUMERIC.find(([n]) => n === flags)?.[1] : typeof flags === 'string' ? (ALIASES[flags] ?? flags) : undefined;
  if (named === undefined || !SERVED_FLAGS.has(named)) {
    throw Object.assign(new TypeError(`The value "${String(flags)}" is invalid for option "flags"`), { code: 'ERR_INVALID_ARG_VALUE' });
  }
  return named;
}

/** A readdir entry with file types (node:fs's Dirent). */
export interface DirentLike {
  name: string;
  parentPath: string;
  path: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isBlockDevice(): boolean;
  isCharacterDevice(): boolean;
}

export function dirent(name: string, parentPath: string, isDirectory: boolean): DirentLike {
  const no = (): boolean => false;
  return { name, parentPath, path: parentPath, isFile: () => !isDirectory, isDirectory: () => isDirectory, isSymbolicLink: no, isFIFO: no, isSocket: no, isBlockDevice: no, isCharacterDevice: no };
}

/** Views of readv's buffers, in order. */
export function viewsOf(buffers: readonly ArrayBufferView[]): Uint8Array[] {
  return buffers.map((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
}

/** readv's one read, scattered over the buffers in order (the last ones may get nothing). */
export function scatter(bytes: Uint8Array, views: readonly Uint8Array[]): void {
  let at = 0;
  for (const view of views) {
    if (at >= bytes.length) break;
    const part = bytes.subarray(at, at + view.length);
    view.set(part);
    at += part.length;
  }
}

/** The position a read or write names: a number from 0, else the handle's own (null, undefined, -1). */
export function positionOf(value: unknown): number | undefined {
  if (typeof value === 'bigint') return Number(value);
  return typeof value === 'number' && value >= 0 ? value : undefined;
}

/** A path as node:fs takes it: a string, a file: URL or a Buffer. */
export function pathOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof URL && value.protocol === 'file:') return decodeURIComponent(value.pathname);
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  throw invalidArg('path', 'of type string or an instance of Buffer or URL', value);
}

/** A file descriptor as node:fs takes it: an integer in [0, 2³¹). */
export function fdOf(value: unknown): number {
  if (typeof value !== 'number') throw invalidArg('fd', 'of type number', value);
  if (Number.isInteger(value) && value >= 0 && value <= 2 ** 31 - 1) return value;
  throw Object.assign(new RangeError(`The value of "fd" is out of range. It must be >= 0 && <= 2147483647. Received ${value}`), { code: 'ERR_OUT_OF_RANGE' });
}

/** A file mode as node:fs takes it: a number, or a string of octal digits. */
export function modeOf(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0o7777_7777) return value;
  if (typeof value === 'string' && /^[0-7]+$/.test(value)) return Number.parseInt(value, 8);
  throw invalidArg('mode', 'a 32-bit unsigned integer or an octal string', value);
}
