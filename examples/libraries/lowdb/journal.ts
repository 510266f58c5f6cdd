/**
 * A journal on lowdb 7 (and steno, its writer), used as its README says: a `Low` database over a
 * `JSONFile`, `db.read()`, then `db.data = …; await db.write()`. steno writes the whole file to a
 * temp file and renames it over the old one — no fsync of the file, none of its folder.
 */
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { stateInFile, stateJournal, type State } from '../stateJournal.js';

const FILE = 'db.json';

export default stateJournal(
  'lowdb',
  () => {
    const db = new Low<State>(new JSONFile<State>(FILE), {});
    return {
      load: async () => {
        await db.read();
        return db.data;
      },
      save: async (state) => {
        db.data = state;
        await db.write();
      },
    };
  },
  (disk) => stateInFile(disk, FILE),
);
