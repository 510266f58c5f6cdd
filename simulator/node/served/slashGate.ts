/**
 * A trailing slash asks for a folder (path_resolution(7)). Node hands a path to the kernel as
 * given, but the disk resolves it (posix.resolve drops the slash), so the calls that look a path
 * up are gated here, on the path as the journal wrote it, with what Linux answers (each case
 * held to real node:fs by properties/servedFsConformance.test.ts):
 * - a lookup (stat, access, unlink, rmdir, readdir, chmod, rename's and link's source, …) of
 *   'x/' where x is a file: ENOTDIR; a missing x is left to the call (ENOENT);
 * - rename onto 'y/' of something that is not a folder: ENOTDIR;
 * - link onto a missing 'y/': ENOENT (an existing y: EEXIST, from the call);
 * - copyFile onto 'y/': EISDIR (its open creates there).
 * Opens (open, writeFile, appendFile, truncate) and stat (stat, lstat, access, cp's looks) keep the
 * slash and answer in the disk (Disk.openFile, statOf), as realpath and readlink do; existsSync
 * says false (fsOps.ts), mkdir -p ENOTDIR (Disk.mkdir).
 */
import { posix } from 'node:path';
import type { Disk } from '../../disk/disk.js';
import { ioError } from '../../disk/ioError.js';
import { pathOf } from './fsArgs.js';
import type { FsOp } from './fsOps.js';
import type { FsSteps } from './fsSteps.js';
import type { ServeContext } from './serveContext.js';

type Rule = 'lookup' | 'rename-target' | 'link-target' | 'create-target';
type Gate = readonly (readonly [arg: number, syscall: string, rule: Rule])[];

const lookup = (syscall: string): Gate => [[0, syscall, 'lookup']];

/** The node:fs operations (by their Sync names) whose paths are gated, and how. */
const GATES: Record<string, Gate> = {
  readFileSync: lookup('open'),
  unlinkSync: lookup('unlink'),
  rmdirSync: lookup('rmdir'),
  rmSync: lookup('lstat'),
  readdirSync: lookup('scandir'),
  opendirSync: lookup('opendir'),
  chmodSync: lookup('chmod'),
  chownSync: lookup('chown'),
  lchownSync: lookup('lchown'),
  utimesSync: lookup('utime'),
  lutimesSync: lookup('lutime'),
  renameSync: [[0, 'rename', 'lookup'], [1, 'rename', 'rename-target']],
  linkSync: [[0, 'link', 'lookup'], [1, 'link', 'link-target']],
  copyFileSync: [[0, 'copyfile', 'lookup'], [1, 'copyfile', 'create-target']],
};

/** Whether a call's argument is a path that ends in a slash (and is not the root). */
function slashed(raw: unknown): boolean {
  if (typeof raw !== 'string' && !(raw instanceof URL) && !Buffer.isBuffer(raw)) return false;
  const path = pathOf(raw);
  return path.length > 1 && path.endsWith('/');
}

/**
 * What Linux answers for the call's slashed paths, or nothing when they pass (the call then answers
 * as it would). rename walks to both folders before it looks at either name; link and copyFile
 * find their source whole before they walk to the target.
 */
function refusal(disk: Disk, gate: Gate, args: readonly unknown[]): Error | undefined {
  if (!gate.some(([arg]) => slashed(args[arg]))) return undefined;
  const syscall = (gate[0] as Gate[number])[1];
  const paths = gate.map(([arg]) => pathOf(args[arg]));
  const folderFound = (path: string): boolean => disk.kindAt(posix.dirname(disk.resolve(path))) === 'folder';
  const bothFirst = syscall === 'rename';
  if (bothFirst) {
    disk.pathCheck(syscall, ...paths);
    if (!paths.every(folderFound)) return undefined;
  }
  for (const [i, [, , rule]] of gate.entries()) {
    const path = paths[i] as string;
    if (!bothFirst) {
      disk.pathCheck(syscall, path);
      if (!folderFound(path)) return undefined;
    }
    const kind = disk.kindAt(path);
    const source = paths[0] as string;
    if (!slashed(path)) {
      if (rule === 'lookup' && kind === undefined) return undefined; // the call's own ENOENT
      continue;
    }
    if (rule === 'lookup') {
      if (kind === 'file') return ioError('ENOTDIR', syscall, path);
      if (kind === undefined) return undefined;
    }
    if (rule === 'rename-target' && disk.kindAt(source) === 'file') return ioError('ENOTDIR', syscall, source, path);
    if (rule === 'link-target' && kind === undefined) return ioError('ENOENT', syscall, source, path);
    if (rule === 'create-target') return ioError('EISDIR', syscall, source, path);
  }
  return undefined;
}

const guarded = (op: FsOp, check: () => Error | undefined): FsOp => ({
  detail: op.detail,
  run: () => {
    const error = check();
    if (error) throw error;
    return op.run();
  },
});

/** `opOf` with its slashed paths checked when the call runs (the step the journal's call is). */
export function gatedOp(name: string, opOf: (ctx: ServeContext, args: readonly unknown[]) => FsOp): (ctx: ServeContext, args: readonly unknown[]) => FsOp {
  const gate = GATES[name];
  if (gate === undefined) return opOf;
  return (ctx, args) => guarded(opOf(ctx, args), () => refusal(ctx.world.disk, gate, args));
}

/** `stepsOf` (a call Node makes of several steps) with its slashed paths checked at its first step. */
export function gatedSteps(name: string, stepsOf: ((ctx: ServeContext, args: readonly unknown[]) => FsSteps | undefined) | undefined): typeof stepsOf {
  const gate = GATES[name];
  if (gate === undefined || stepsOf === undefined) return stepsOf;
  return (ctx, args) => {
    const steps = stepsOf(ctx, args);
    return steps && { ...steps, open: guarded(steps.open, () => refusal(ctx.world.disk, gate, args)) };
  };
}
