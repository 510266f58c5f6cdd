/**
 * A journal on node-persist 4, used as its README says: `await storage.init({ dir })`, then
 * `await storage.setItem(key, value)` and `await storage.getItem(key)`. Every key is a file of its
 * own, named by a hash of the key and rewritten in place with fs.writeFile, never fsynced.
 */
import storage from 'node-persist';
import type { DiskView } from 'durasim';
import { stateJournal, type State, type Stored } from '../stateJournal.js';

const DIR = 'persist';

/** The keys this journal keeps: one item per journal record, and their names under "keys". */
export default stateJournal(
  'node-persist',
  () => {
    let ready: Promise<unknown> | undefined;
    const init = (): Promise<unknown> => (ready ??= storage.init({ dir: DIR }));
    return {
      load: async () => {
        await init();
        const keys = ((await storage.getItem('keys')) as string[] | undefined) ?? [];
        const state: State = {};
        for (const key of keys) {
          const record = (await storage.getItem(`record:${key}`)) as Stored | undefined;
          if (record) state[key] = record;
        }
        return keys.length === 0 ? undefined : state;
      },
      save: async (state) => {
        await init();
        for (const [key, record] of Object.entries(state)) await storage.setItem(`record:${key}`, record);
        await storage.setItem('keys', Object.keys(state));
      },
    };
  },
  (disk: DiskView) => {
    // node-persist's files: one JSON { key, value } each, in its folder.
    const items = new Map<string, unknown>();
    for (const name of disk.readdir(DIR)) {
      const text = disk.readFile(`${DIR}/${name}`);
      if (text === undefined || text.trim() === '') continue;
      const item = JSON.parse(text) as { key: string; value: unknown };
      items.set(item.key, item.value);
    }
    const keys = (items.get('keys') as string[] | undefined) ?? [];
    const state: State = {};
    for (const key of keys) {
      const record = items.get(`record:${key}`) as Stored | undefined;
      if (record) state[key] = record;
    }
    return keys.length === 0 ? undefined : state;
  },
);
