/**
 * Node's whole-file calls through a path, as Node makes them (scenario format 2 on): writeFile and
 * appendFile open the file (writeFile truncating it), write the bytes, close it; copyFile opens the
 * source and the target (truncating it), copies, closes. Each is a step of its own, so a process
 * kill can land between them and leave what it leaves on Linux: a SIGKILL after writeFile's open
 * leaves an empty file (held to real Node killed at those system calls by strace, in
 * fsSteps.test.ts). A failed write or copy still closes the file (a step too), then the call fails
 * with the write's error. Format 1 scenarios keep each call one step, so they replay as they did.
 * Through a descriptor or a FileHandle these calls are one write: nothing opens or closes there.
 */
import { constants } from 'node:fs'; // allow-ambient: flag constants, no I/O
import { ioError } from '../../disk/ioError.js';
import { previewData, rel } from '../../world/trace.js';
import { bytesOf, encodingOf, modeOf, openFlags, optionOf, pathOf } from './fsArgs.js';
import type { FsOp } from './fsOps.js';
import { written, type ServeContext } from './serveContext.js';
import { atomicStep, ProcessEnded } from '../../world/atomicStep.js';

/** The first scenario format whose whole-file calls are Node's steps. */
export const MULTI_STEP_VERSION = 2;

/** A whole-file call's steps: the open, the write (none for no bytes, as Node makes no write then), the close. */
export interface FsSteps {
  open: FsOp;
  write?: FsOp;
  close: FsOp;
}

type StepsOf = (ctx: ServeContext, args: readonly unknown[]) => FsSteps | undefined;

/** The trace details of a whole-file call's steps (confirm's real workers name theirs the same, src/confirm/countedSteps.ts). */
export const wholeFileDetails = (name: string, flag: string, bytes: Uint8Array): { open: string; write: string; close: string } => ({ open: `${name} open ${flag}`, write: `${name} write ${previewData(bytes)}`, close: `${name} close` });
/** The same for copyFile, `shown` being "source → target". */
export const copyDetails = (shown: string): { open: string; write: string; close: string } => ({ open: `${shown} open`, write: `${shown} copy`, close: `${shown} close` });

/** writeFile and appendFile through a path: open (flag w or a, or the caller's), write, close. */
function wholeFile(append: boolean): StepsOf {
  return (ctx, [target, data, options]) => {
    if (typeof target === 'number' || ctx.world.scenario.version < MULTI_STEP_VERSION) return undefined;
    const disk = ctx.world.disk;
    const path = pathOf(target);
    const name = rel(disk.resolve(path));
    const bytes = bytesOf(data, encodingOf(options));
    const flag = openFlags(optionOf(options, 'flag', undefined), append ? 'a' : 'w');
    const mode = optionOf<unknown>(options, 'mode', undefined);
    let fd = -1;
    const detail = wholeFileDetails(name, flag, bytes);
    return {
      open: { detail: detail.open, run: () => void (fd = disk.openFile(path, flag, ctx.proc.pid, mode === undefined ? undefined : modeOf(mode)).fd) },
      ...(bytes.length > 0 ? { write: { detail: detail.write, run: () => disk.handleWrite(fd, written(ctx, bytes)) } } : {}),
      close: { detail: detail.close, run: () => disk.handleClose(fd) },
    };
  };
}

/**
 * copyFile as libuv makes it: the open checks and opens both files (the target created or
 * truncated; EEXIST under COPYFILE_EXCL, EISDIR on a folder; one file under two names is left
 * alone, with no step after), the copy writes the source's bytes, the close closes.
 */
const copyFile: StepsOf = (ctx, [from, to, modeFlags]) => {
  if (ctx.world.scenario.version < MULTI_STEP_VERSION) return undefined;
  const disk = ctx.world.disk;
  const [source, target] = [disk.resolve(pathOf(from)), disk.resolve(pathOf(to))];
  const exclusive = (Number(modeFlags ?? 0) & constants.COPYFILE_EXCL) !== 0;
  const shown = `${rel(source)} → ${rel(target)}`;
  let fd = -1;
  let bytes: Buffer = Buffer.alloc(0);
  const detail = copyDetails(shown);
  return {
    open: {
      detail: detail.open,
      run: () => {
        const sourceStats = disk.statOf(source);
        const exists = disk.exists(target);
        if (exclusive && exists) throw ioError('EEXIST', 'copyfile', source, target);
        if (exists && disk.statOf(target).isDirectory()) throw ioError('EISDIR', 'copyfile', source, target);
        if (exists && disk.statOf(target).ino === sourceStats.ino) return;
        if (sourceStats.isDirectory()) {
          const opened = disk.openFile(target, 'w', ctx.proc.pid);
          disk.handleClose(opened.fd);
          disk.unlink(target);
          throw ioError('EISDIR', 'copyfile', source, target);
        }
        bytes = disk.readFile(source);
        fd = disk.openFile(target, 'w', ctx.proc.pid).fd;
      },
    },
    write: { detail: detail.write, run: () => (fd === -1 ? undefined : disk.handleWrite(fd, written(ctx, bytes))) },
    close: { detail: detail.close, run: () => (fd === -1 ? undefined : disk.handleClose(fd)) },
  };
};

/** A whole-file call's steps in the caller's stack: open, write, close; a failed write still closes, then fails. */
export function stepsAtOnce(ctx: ServeContext, api: string, steps: FsSteps): void {
  atomicStep(ctx.world, ctx.proc, api, steps.open.detail, steps.open.run);
  let failure: { error: unknown } | undefined;
  if (steps.write) {
    try {
      atomicStep(ctx.world, ctx.proc, api, steps.write.detail, steps.write.run);
    } catch (error) {
      if (error instanceof ProcessEnded) throw error;
      failure = { error };
    }
  }
  try {
    atomicStep(ctx.world, ctx.proc, api, steps.close.detail, steps.close.run);
  } catch (error) {
    if (error instanceof ProcessEnded || failure === undefined) throw error;
  }
  if (failure) throw failure.error;
}

/** The same as scheduled steps (the callback and promise APIs): each waits for its grant. */
export async function stepsScheduled(ctx: ServeContext, api: string, steps: FsSteps): Promise<undefined> {
  await ctx.world.syncStep(ctx.proc, api, steps.open.detail, steps.open.run);
  let failure: { error: unknown } | undefined;
  if (steps.write) {
    try {
      await ctx.world.syncStep(ctx.proc, api, steps.write.detail, steps.write.run);
    } catch (error) {
      failure = { error };
    }
  }
  try {
    await ctx.world.syncStep(ctx.proc, api, steps.close.detail, steps.close.run);
  } catch (error) {
    if (failure === undefined) throw error;
  }
  if (failure) throw failure.error;
  return undefined;
}

/** The calls a kill can split, by their synchronous names; undefined where the call is one step. */
export const FS_STEPS: Record<string, StepsOf> = {
  writeFileSync: wholeFile(false),
  appendFileSync: wholeFile(true),
  copyFileSync: copyFile,
};
