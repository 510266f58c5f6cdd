/**
 * A journal on proper-lockfile 4, used as its README says: `const release = await lockfile.lock(file)`
 * before it touches its state, `await release()` after. The state file itself is written the way
 * that survives a power loss (temp file, fsync, rename, folder fsync), so what is judged here is the
 * lock: a folder `<file>.lock` made with mkdir, kept fresh by touching its mtime, and taken over once
 * it is stale (10 s by default), as the library decides it.
 */
import { readFile } from 'node:fs/promises';
import lockfile from 'proper-lockfile';
import { stateInFile, stateJournal, syncFolder, unlessMissing, writeDurably, type State } from '../stateJournal.js';

const FILE = 'state.json';

export default stateJournal(
  'proper-lockfile',
  () => {
    const locked = async <T>(work: () => Promise<T>): Promise<T> => {
      const release = await lockfile.lock(FILE, { realpath: false, retries: { retries: 20, minTimeout: 50, maxTimeout: 1000 } });
      try {
        return await work();
      } finally {
        await release();
      }
    };
    return {
      load: () =>
        locked(async () => {
          const state = await unlessMissing(async () => JSON.parse(await readFile(FILE, 'utf8')) as State);
          await syncFolder();
          return state;
        }),
      save: (state) => locked(() => writeDurably(FILE, JSON.stringify(state))),
    };
  },
  (disk) => stateInFile(disk, FILE),
);
