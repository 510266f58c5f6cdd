/**
 * What a journal step touches, read from its trace line and the service's and store's lines that
 * follow it — the dependency explore's depth 2 prunes its pairs by (crashExplorer.ts): a second
 * fault is tried only at a step that touches something the first fault's step touched.
 *
 * - `key <name>`: an operation's key or a resource the task reads or plans from, named as a whole
 *   word by the step's line (`fetch POST /operations/post-a`, `fetch POST /v1/payouts [post-a]`, a
 *   journal record `{"key":"post-a",…}`) — the names a fault anchor finds (stepMentions);
 * - `file <path>`: each path a disk call names (both sides of a rename or link; a directory's
 *   handle without its "/"), and for a call that adds or removes a directory entry (a create, a
 *   link, a rename, an unlink, a mkdir) the folder holding it too, whose fsync makes it durable;
 * - `store <key>`: a store entry the step reads or writes (`store <prefix>*` for a listing, which
 *   touches every entry under the prefix);
 * - `lease <name>`: a lease the step acquires, renews or releases, or writes under.
 *
 * Related touches are ranked, the most specific first: the same key, then the same file, then the
 * same store entry, then the same lease (a journal renews its lease around nearly every call, so
 * it relates nearly everything and comes last).
 */
import { stepMentions } from '../../simulator/scenario/scenarioEvents.js';
import { WORK_DIR } from '../../simulator/scenario/scenario.js';

export const TOUCH_KINDS = ['key', 'file', 'store', 'lease'] as const;
export type TouchKind = (typeof TOUCH_KINDS)[number];

/** Disk calls that add or remove a directory entry (their folder is touched too), as Node names them or env does. */
const ENTRY_OPS = new Set(['fs.link', 'fs.rename', 'fs.unlink', 'fs.rm', 'fs.rmdir', 'fs.mkdir', 'fs.symlink', 'fs.copyFile', 'fs.cp', 'fs.writeFile', 'fs.appendFile']);

const TWO_PATHS = new Set(['fs.link', 'fs.rename', 'fs.symlink', 'fs.copyFile', 'fs.cp']);

/** The folder that holds a path as the trace shows it (relative to the work dir). */
function folderOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut === -1 ? WORK_DIR : cut === 0 ? '/' : path.slice(0, cut);
}

/** A path as a touch names it: a directory handle's trailing "/" dropped. */
const plain = (path: string): string => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/**
 * The touches of one worker step: `op` and `detail` its trace line, `after` the service's and the
 * store's lines its call made (their details), `names` the task's operation keys and resources.
 */
export function stepTouches(op: string, detail: string, after: readonly string[], names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const name of names) if (stepMentions(op, detail, name)) out.add(`key ${name}`);
  const base = op.replace(/^fs\.promises\./, 'fs.').replace(/Sync$/, '');
  if ((base.startsWith('fs.') || base.startsWith('fh.')) && !/^fd \d/.test(detail)) {
    // Only a two-path call's line has a second path after its arrow (data written may hold one).
    const [from, rest] = TWO_PATHS.has(base) ? detail.split(' → ') : [detail];
    const paths = [from?.split(' ')[0], rest?.split(' ')[0]].filter((p): p is string => p !== undefined && p !== '');
    for (const path of paths) out.add(`file ${plain(path)}`);
    const creates = base === 'fs.open' && /^[wax]/.test(detail.split(' ')[1] ?? '');
    if (ENTRY_OPS.has(base) || creates) for (const path of paths) out.add(`file ${folderOf(plain(path))}`);
  }
  if (base.startsWith('store.')) {
    const lease = /^lease (\S+)/.exec(detail)?.[1];
    if (lease !== undefined) out.add(`lease ${lease}`);
    else if (detail !== '') out.add(`store ${detail}`);
  }
  for (const line of after) {
    const under = /under lease (\S+)/.exec(line)?.[1];
    if (under !== undefined) out.add(`lease ${under}`);
  }
  return [...out];
}

/** Whether two touches name the same thing (a store listing `store p*` touches every entry under p). */
function same(a: string, b: string): boolean {
  if (a === b) return true;
  if (!a.startsWith('store ') || !b.startsWith('store ')) return false;
  const prefix = (t: string): string | undefined => (t.endsWith('*') ? t.slice('store '.length, -1) : undefined);
  const pa = prefix(a);
  const pb = prefix(b);
  if (pa !== undefined && pb !== undefined) return pa.startsWith(pb) || pb.startsWith(pa);
  if (pa !== undefined) return b.slice('store '.length).startsWith(pa);
  if (pb !== undefined) return a.slice('store '.length).startsWith(pb);
  return false;
}

/**
 * How closely a second step depends on a first: the rank in TOUCH_KINDS of the most specific thing
 * both touch (0: the same key … 3: the same lease), or undefined when they touch nothing in common.
 */
export function dependency(first: readonly string[], second: readonly string[]): number | undefined {
  let best: number | undefined;
  for (const a of first) {
    for (const b of second) {
      if (!same(a, b)) continue;
      const rank = TOUCH_KINDS.indexOf(a.slice(0, a.indexOf(' ')) as TouchKind);
      if (best === undefined || rank < best) best = rank;
    }
  }
  return best;
}
