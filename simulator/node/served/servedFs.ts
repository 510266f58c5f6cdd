/**
 * node:fs served on the simulated disk, in its three forms, each built on the one operation of
 * fsOps.ts: the synchronous API (fs.writeFileSync: one atomic step), the callback API
 * (fs.writeFile(path, data, cb): a scheduled step whose callback runs as the process's own code)
 * and the promise API (fs.promises.writeFile, node:fs/promises: a scheduled step; open() gives a
 * FileHandle). File streams (createReadStream, createWriteStream) are Node's own, run as the
 * process's code: every open, read, write and close they make is a served callback call, so each
 * chunk is a step. What fsOps.ts does not implement (watchers, making symlinks, statfs, ...) stays an
 * escape, refused with its explanation.
 */
import { atomicStep } from '../../world/atomicStep.js';
import { FS_OPS } from './fsOps.js';
import { FS_STEPS, stepsAtOnce, stepsScheduled, type FsSteps } from './fsSteps.js';
import { invalidArg } from './fsArgs.js';
import { gatedOp, gatedSteps } from './slashGate.js';
import { asCaller, type Served, type ServeContext } from './serveContext.js';
import { ServedFileHandle } from './servedFileHandle.js';

const syncServed = (name: string, api = `fs.${name}`): Served => {
  const opOf = gatedOp(name, FS_OPS[name] as NonNullable<(typeof FS_OPS)[string]>);
  const stepsOf = gatedSteps(name, FS_STEPS[name]);
  return (ctx, args) => {
    const steps = stepsOf?.(ctx, args);
    if (steps) return stepsAtOnce(ctx, api, steps);
    const op = opOf(ctx, args);
    return atomicStep(ctx.world, ctx.proc, api, op.detail, op.run);
  };
};

/** What the callback gets on success: fs.read and fs.write give two values, fs.exists one and no error. */
function deliver(name: string, callback: (...values: unknown[]) => void, value: unknown, args: readonly unknown[]): void {
  if (name === 'readSync' || name === 'writeSync' || name === 'readvSync' || name === 'writevSync') callback(null, value, args[1]);
  else if (name === 'existsSync') callback(value);
  else callback(null, value);
}

const callbackServed = (name: string, api = `fs.${name.slice(0, -'Sync'.length)}`): Served => {
  const opOf = gatedOp(name, FS_OPS[name] as NonNullable<(typeof FS_OPS)[string]>);
  const stepsOf = gatedSteps(name, FS_STEPS[name]);
  return (ctx, all) => {
    const callback = all[all.length - 1];
    if (typeof callback !== 'function') throw invalidArg('cb', 'of type function', callback);
    const args = all.slice(0, -1);
    const steps = stepsOf?.(ctx, args);
    const op = steps ? undefined : opOf(ctx, args);
    const as = (run: () => void): void => asCaller(ctx, run);
    (op ? ctx.world.syncStep(ctx.proc, api, op.detail, op.run) : stepsScheduled(ctx, api, steps as FsSteps)).then(
      (value) => as(() => deliver(name, callback as (...values: unknown[]) => void, value, args)),
      (error: unknown) => as(() => (name === 'existsSync' ? callback(false) : callback(error))),
    );
    return undefined;
  };
};

/** A FileHandle given where a path or fd goes (readFile, writeFile, appendFile) reads and writes through its fd. */
const unwrap = (value: unknown): unknown => (value instanceof ServedFileHandle ? value.fd : value);

const promiseServed = (name: string, api = `fs.promises.${name.slice(0, -'Sync'.length)}`): Served => {
  const opOf = gatedOp(name, FS_OPS[name] as NonNullable<(typeof FS_OPS)[string]>);
  const stepsOf = gatedSteps(name, FS_STEPS[name]);
  return (ctx: ServeContext, args) => {
    const steps = args[0] instanceof ServedFileHandle ? undefined : stepsOf?.(ctx, args);
    if (steps) return stepsScheduled(ctx, api, steps);
    const op = opOf(ctx, [unwrap(args[0]), ...args.slice(1)]);
    if (name !== 'openSync') return ctx.world.syncStep(ctx.proc, api, op.detail, op.run);
    return ctx.world.syncStep(ctx.proc, api, op.detail, () => new ServedFileHandle(ctx, ctx.world.disk.handle(op.run() as number)));
  };
};

/**
 * realpathNativeSync is realpath(3), and cpScheduledSync cp as its callback and promise forms run it
 * (cpSync checks a folder's `recursive` first: fsCompound.ts), served under Node's names for them
 * below; every other operation is a node:fs name.
 */
const SYNC_NAMES = Object.keys(FS_OPS).filter((name) => name !== 'realpathNativeSync' && name !== 'cpScheduledSync');
const CALLBACK_NAMES = SYNC_NAMES.filter((name) => name !== 'cpSync');
const PROMISE_NAMES = ['openSync', 'readFileSync', 'writeFileSync', 'appendFileSync', 'renameSync', 'linkSync', 'unlinkSync', 'mkdirSync', 'readdirSync', 'statSync', 'lstatSync', 'accessSync', 'rmSync', 'rmdirSync', 'truncateSync', 'copyFileSync', 'chmodSync', 'chownSync', 'lchownSync', 'utimesSync', 'lutimesSync', 'mkdtempSync', 'opendirSync', 'readlinkSync'];

/** Node's own file streams, made in the process's turn: their calls of node:fs are then the process's own, and served. */
const nodesOwn: Served = (ctx, _args, _thisArg, _newTarget, real) => {
  if (real === undefined) throw new Error('durasim: a stream was asked for with no way to make it');
  return asCaller(ctx, real);
};

export const FS_SERVED: [string, Served][] = [
  ...SYNC_NAMES.map((name): [string, Served] => [`fs.${name}`, syncServed(name)]),
  ...CALLBACK_NAMES.map((name): [string, Served] => [`fs.${name.slice(0, -'Sync'.length)}`, callbackServed(name)]),
  ...PROMISE_NAMES.map((name): [string, Served] => [`fs.promises.${name.slice(0, -'Sync'.length)}`, promiseServed(name)]),
  // realpath(3): the native forms and the promise API (Node's JavaScript walk is fs.realpath and fs.realpathSync).
  ['fs.realpathSync.native', syncServed('realpathNativeSync', 'fs.realpathSync.native')],
  ['fs.realpath.native', callbackServed('realpathNativeSync', 'fs.realpath.native')],
  ['fs.promises.realpath', promiseServed('realpathNativeSync', 'fs.promises.realpath')],
  ['fs.cp', callbackServed('cpScheduledSync', 'fs.cp')],
  ['fs.promises.cp', promiseServed('cpScheduledSync', 'fs.promises.cp')],
  ['fs.createReadStream', nodesOwn],
  ['fs.createWriteStream', nodesOwn],
];
