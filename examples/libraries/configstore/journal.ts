/**
 * A journal on configstore 8, used as its README says: `new Configstore(name, defaults, options)`
 * (here with `configPath`, as a server keeps its state beside its work), then `config.all = …` and
 * `config.all`. It writes synchronously through atomically: a temp file, renamed over the old one.
 */
import Configstore from 'configstore';
import { stateInFile, stateJournal, type State } from '../stateJournal.js';

const FILE = 'config/journal.json';

export default stateJournal(
  'configstore',
  (env) => {
    const config = new Configstore('durasim-journal', {}, { configPath: `${env.dir}/${FILE}` });
    return {
      load: async () => {
        const all = config.all as State;
        return Object.keys(all).length === 0 ? undefined : all;
      },
      save: async (state) => {
        config.all = state;
      },
    };
  },
  (disk) => stateInFile(disk, FILE),
);
