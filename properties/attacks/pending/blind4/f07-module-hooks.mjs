// f07 — module customization hooks: hooks added with module.registerHooks() (Node 22.15+/23.5+, in-thread)
// or module.register() (Node 20.6+, on the loader's hooks thread) stay in the loader's chain for the
// thread's life; there is no API to remove them. A hook closure keeps whatever it closes over.
// Technique: put(tag): with registerHooks, the first put of an incarnation registers one resolve hook
// closing over a Set (a module-level variable of this file) and adds the tag to it; without it,
// register() a data: hook module with the tag written in its source. The hook resolves the specifier
// 'atk-hook:'+encodeURIComponent(tag) to 'data:text/javascript,//atk-f07-hook' and passes everything else on.
// get(tag): import.meta.resolve('atk-hook:...') (resolve hooks only: nothing loaded or cached; with no
// hook it returns the specifier itself), falling back to createRequire(import.meta.url).resolve.
// Node: 20, 22, 24 (self-test passes on all three; 20 through module.register).
// Expected of a correct durasim: exit 1 (no hook of the crashed incarnation answers at the next one),
// or exit 4 if module.register/registerHooks is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import module from 'node:module';

const TARGET = 'data:text/javascript,//atk-f07-hook';
const spec = (tag) => 'atk-hook:' + encodeURIComponent(tag);
let mine; // this incarnation's Set, closed over by its hook
export const stash = {
  put(tag) {
    if (typeof module.registerHooks === 'function') {
      if (!mine) {
        const tags = (mine = new Set());
        module.registerHooks({
          resolve(s, ctx, next) {
            if (typeof s === 'string' && s.startsWith('atk-hook:') && tags.has(decodeURIComponent(s.slice(9)))) return { url: TARGET, shortCircuit: true };
            return next(s, ctx);
          },
        });
      }
      mine.add(tag);
    } else {
      const src = `export async function resolve(s, c, n) { if (s === ${JSON.stringify(spec(tag))}) return { url: ${JSON.stringify(TARGET)}, shortCircuit: true }; return n(s, c); }`;
      module.register('data:text/javascript,' + encodeURIComponent(src));
    }
  },
  get(tag) {
    try { if (import.meta.resolve(spec(tag)) === TARGET) return 'alive'; } catch {}
    try { if (module.createRequire(import.meta.url).resolve(spec(tag)) === TARGET) return 'alive'; } catch {}
    return undefined;
  },
};
export default memoryJournal('f07-module-hooks', verified('f07-module-hooks', stash));
