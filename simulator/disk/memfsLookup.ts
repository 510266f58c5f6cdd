/**
 * What the disk asks memfs on every step — does a path exist, is it a folder, which inode, which
 * names a folder holds, how long is an open file — answered from memfs's own tree: no Stats object
 * (four Dates each), no error thrown and caught for every missing path, no Result per step, no
 * access time stamped on every folder the look passes (these looks are the simulator's, not the
 * journal's). The answers are existsSync's and statSync's: a path through a file, or a folder
 * without search permission, does not exist; symbolic links are followed. Paths are absolute and
 * normalized (Disk.resolve); their steps are remembered (a run names few paths).
 */
import type { Volume } from 'memfs';
import { ioError } from './ioError.js';

export interface CoreNode {
  ino: number;
  mtime: Date;
  symlink?: string;
  isDirectory(): boolean;
  isSymlink(): boolean;
  getSize(): number;
  canExecute(uid?: number, gid?: number): boolean;
  canRead(uid?: number, gid?: number): boolean;
  canWrite(uid?: number, gid?: number): boolean;
}

export interface CoreLink {
  children: Map<string, CoreLink | undefined>;
  getNode(): CoreNode;
  getPath(): string;
}

/** memfs's own bound on symbolic links followed in one walk (Superblock's MAX_SYMLINK_HOPS). */
const MAX_SYMLINK_HOPS = 40;

const stepsCache = new Map<string, string[]>();
function stepsOf(abs: string): string[] {
  let steps = stepsCache.get(abs);
  if (steps === undefined) {
    steps = abs === '/' ? [] : abs.slice(1).split('/');
    if (stepsCache.size >= 8192) stepsCache.clear();
    stepsCache.set(abs, steps);
  }
  return steps;
}

/** The folder `link` is in, as a path ("/" at the top). */
function parentPathOf(link: CoreLink): string {
  const path = link.getPath();
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

/**
 * The link at `abs` as memfs's walk(steps, resolveSymlinks: true, checkExistence: false,
 * checkAccess: true) finds it, or undefined where that walk finds none or fails.
 */
interface WalkStart {
  root: CoreLink;
  uid: number;
  gid: number;
}

function walkStart(vol: Volume): WalkStart {
  const core = vol._core as unknown as { root: CoreLink; process: { getuid?: () => number; getgid?: () => number } };
  return { root: core.root, uid: core.process.getuid?.() ?? 0, gid: core.process.getgid?.() ?? 0 };
}

/** One step of memfs's walk: the child named `name` of `curr`, or undefined where the walk stops (a file on the way, a folder without search permission, no such name). */
function stepInto(curr: CoreLink, name: string, last: boolean, start: WalkStart): CoreLink | undefined {
  const node = curr.getNode();
  if (node.isDirectory()) {
    if (!node.canExecute(start.uid, start.gid)) return undefined;
  } else if (!last) return undefined;
  return curr.children.get(name);
}

export function linkAt(vol: Volume, abs: string): CoreLink | undefined {
  const start = walkStart(vol);
  let steps = stepsOf(abs);
  let curr = start.root;
  let hops = 0;
  for (let i = 0; i < steps.length; ) {
    const next = stepInto(curr, steps[i] as string, i === steps.length - 1, start);
    if (next === undefined) return undefined;
    curr = next;
    const child = curr.getNode();
    if (child.isSymlink()) {
      if (++hops > MAX_SYMLINK_HOPS) return undefined;
      const target = child.symlink as string;
      const resolved = target.startsWith('/') ? target : `${parentPathOf(curr)}/${target}`;
      steps = [...resolved.split('/').filter((s) => s.length > 0 && s !== '.'), ...steps.slice(i + 1)];
      if (steps.includes('..')) return linkAtSlowly(vol, `/${steps.join('/')}`);
      curr = start.root;
      i = 0;
      continue;
    }
    i++;
  }
  return curr;
}

/**
 * The link at `abs` when no symbolic link is on the way (nor at the end): found, undefined when the
 * walk finds nothing there (a name missing, a file on the way, a folder out of reach), or 'slow'
 * when a symbolic link is met (memfs's own calls follow it).
 */
export function plainLinkAt(vol: Volume, abs: string): CoreLink | undefined | 'slow' {
  const start = walkStart(vol);
  const steps = stepsOf(abs);
  let curr = start.root;
  for (let i = 0; i < steps.length; i++) {
    const next = stepInto(curr, steps[i] as string, i === steps.length - 1, start);
    if (next === undefined) return undefined;
    if (next.getNode().isSymlink()) return 'slow';
    curr = next;
  }
  return curr;
}

/** A path with ".." in it after a symbolic link: memfs's own walk resolves it. */
function linkAtSlowly(vol: Volume, abs: string): CoreLink | undefined {
  const found = vol._core.walk(abs, true, false, true);
  return found.ok && found.value ? (found.value as unknown as CoreLink) : undefined;
}

/** The inode at `abs`, or undefined where existsSync says false. */
export function nodeAt(vol: Volume, abs: string): CoreNode | undefined {
  return linkAt(vol, abs)?.getNode();
}

export function existsAt(vol: Volume, abs: string): boolean {
  return linkAt(vol, abs) !== undefined;
}

export function isDirectoryAt(vol: Volume, abs: string): boolean {
  return nodeAt(vol, abs)?.isDirectory() ?? false;
}

/**
 * The names in the folder at `abs`, sorted as readdirSync sorts them, each with its inode; undefined
 * where there is no folder. (readdirSync builds a Dirent for each name and stamps the folder's
 * access time: this is the simulator's own look.)
 */
export function entriesAt(vol: Volume, abs: string): { name: string; node: CoreNode }[] | undefined {
  const link = linkAt(vol, abs);
  if (link === undefined || !link.getNode().isDirectory()) return undefined;
  const out: { name: string; node: CoreNode }[] = [];
  for (const [name, child] of link.children) if (child !== undefined && name !== '.' && name !== '..') out.push({ name, node: child.getNode() });
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The inode open as `fd`, as fstatSync(fd) describes it; EBADF as it throws it. */
export function nodeOfFd(vol: Volume, fd: number): CoreNode {
  const file = vol._core.getFileByFd(fd);
  if (!file) throw ioError('EBADF', 'fstat');
  return file.node as unknown as CoreNode;
}

/** The size of the file open as `fd`, as fstatSync(fd).size gives it. */
export function sizeOfFd(vol: Volume, fd: number): number {
  return nodeOfFd(vol, fd).getSize();
}
