/**
 * The journal every library example shares: durasim's reference protocol (`ReferenceRun`: the
 * intent recorded before the send, a query after a crash, the user's file guarded, the retry
 * budget counted across restarts), with its records kept as a library keeps data — one current
 * record per key, the whole state saved by the library's own write and read back by its own read.
 * Only the store differs between the examples, so each verdict is about what its library does.
 */
import { open, rename } from 'node:fs/promises';
import { ReferenceRun, type DiskView, type Env, type JournalAdapter, type JournalRecords, type LogRecord, type PublishOperation, type Task } from 'durasim';

/** A key's one record, with what its history would have said: the user's texts preserved, how many times it was dispatched. */
export type Stored = LogRecord & { preservedAll?: string[]; sends?: number };
export type State = Record<string, Stored>;

/** Where a library keeps the journal's state: its read (nothing yet: undefined) and its write. */
export interface StateStore {
  load(): Promise<State | undefined>;
  save(state: State): Promise<void>;
}

/** The reference protocol over a StateStore (a subclass may change a decision, as the fixtures of durasim's own tests do). */
export class StateRun extends ReferenceRun {
  private state: State = {};

  constructor(env: Env, task: Task, private readonly store: StateStore) {
    super(env, task);
  }

  protected override async loadRecords(): Promise<LogRecord[]> {
    this.state = (await this.store.load()) ?? {};
    // The sends of earlier incarnations count against the retry budget (counted in dispatched records): one per send.
    return Object.values(this.state).flatMap((r) => {
      const earlier = (r.sends ?? 0) - (r.state === 'dispatched' ? 1 : 0);
      return [...Array.from({ length: Math.max(0, earlier) }, (): LogRecord => ({ key: r.key, state: 'dispatched', ...(r.digest !== undefined ? { digest: r.digest } : {}) })), r];
    });
  }

  protected override async record(record: LogRecord): Promise<void> {
    const before = this.state[record.key];
    const preservedAll = [...(before?.preservedAll ?? []), ...(record.preserved !== undefined ? [record.preserved] : [])];
    this.state[record.key] = { ...before, ...record, preservedAll, sends: (before?.sends ?? 0) + (record.state === 'dispatched' ? 1 : 0) };
    await this.store.save(this.state);
    this.remember(record);
  }

  /** The recorded intent: the body and digest are kept on the key's one record. */
  protected override intent(op: PublishOperation): ReturnType<ReferenceRun['intent']> {
    const stored = this.state[op.key];
    if (stored?.digest !== undefined && stored.body !== undefined) return { digest: stored.digest, body: stored.body };
    return super.intent(op);
  }
}

/** What `read` gives, or undefined when the file it reads is not there (ENOENT): no state yet. */
export async function unlessMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The records a state holds, in the model's vocabulary: each key's current state (durasim observes the histories). */
export function recordsOf(state: State | undefined): JournalRecords {
  const records: JournalRecords = {};
  for (const [key, r] of Object.entries(state ?? {})) {
    records[key] = r.path !== undefined
      ? { kind: 'file', path: r.path, state: r.state as 'read', preserved: r.preservedAll ?? [] }
      : { kind: 'operation', state: r.state as 'authorized', ...(r.digest ? { digest: r.digest } : {}), ...(r.receipt ? { receipt: r.receipt } : {}) };
  }
  return records;
}

/** A JSON state file as inspect() reads it: a missing, empty or half-written file holds no state. */
export function stateInFile(disk: DiskView, path: string): State | undefined {
  const text = disk.readFile(path);
  if (text === undefined || text.trim() === '') return undefined;
  return JSON.parse(text) as State;
}

/** The calls of run() under way, per process (env is one per process) and task: a second one (a retried request) waits for the first, then finds its results. */
const callsUnderWay = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * A journal whose state `store(env)` keeps, read back for the judge by `inspectState`; `Run` may be
 * a subclass of StateRun. One call of a task at a time in a process (the lock file is the process's,
 * so it cannot tell two calls of one process apart): the verdict is about the library, not that —
 * unless `calls` is 'as they come', for a journal whose library is what keeps them apart.
 */
export function stateJournal(name: string, store: (env: Env) => StateStore, inspectState: (disk: DiskView) => State | undefined, Run: typeof StateRun = StateRun, calls: 'one at a time' | 'as they come' = 'one at a time'): JournalAdapter {
  return {
    name,
    run: async (env, task) => {
      if (calls === 'as they come') return new Run(env, task, store(env)).execute();
      const underWay = callsUnderWay.get(env) ?? new Map<string, Promise<void>>();
      callsUnderWay.set(env, underWay);
      const before = underWay.get(task.id);
      const call = (): Promise<void> => new Run(env, task, store(env)).execute();
      const mine = before === undefined ? call() : before.catch(() => undefined).then(call);
      underWay.set(task.id, mine);
      try {
        await mine;
      } finally {
        if (underWay.get(task.id) === mine) underWay.delete(task.id);
      }
    },
    inspect: (disk) => recordsOf(inspectState(disk)),
  };
}

/** The folder's entries made durable: after a rename, and before trusting a state read back (a rename whose folder fsync failed is in the page cache only). */
export async function syncFolder(): Promise<void> {
  const folder = await open('.', 'r');
  await folder.sync();
  await folder.close();
}

/** For journals whose library is not the writer (a lock, a middleware): `text` at `path` the way that survives a power loss — a temp file, fsynced, renamed, the folder fsynced. */
export async function writeDurably(path: string, text: string): Promise<void> {
  const temp = `${path}.tmp`;
  const handle = await open(temp, 'w');
  await handle.writeFile(text);
  await handle.sync();
  await handle.close();
  await rename(temp, path);
  await syncFolder();
}
