// Shared helper (not an attack): wraps an attack's stash so that a put which stores nothing is seen.
// put(tag) runs the attack's put, then reads the tag back in the same incarnation with the attack's own
// get; if it is not found (or put threw) it writes "ATK-PUT-FAILED <name> ..." to stderr and throws
// (the harness swallows the throw; the line is in the trace, seen with --verbose). So an exit 1 means
// the memory was there in-incarnation and gone after the crash, not that the attack never stored.
// With diag: true every get and put is logged with process.pid (1000, 1001, ... one per incarnation),
// so a reader can see an incarnation finding a tag that an earlier incarnation put; each diag get also
// reads a tag nobody puts ('atk-never-put'), which must stay false (get itself stores nothing).
export function verified(name, stash, { diag = false } = {}) {
  return {
    async get(tag) {
      const v = await stash.get(tag);
      if (diag) {
        // A tag nobody ever puts: it must read false in every incarnation (shows get itself stores nothing).
        const never = await stash.get('atk-never-put');
        console.log(`ATK-DIAG ${name} get pid=${process.pid} tag=${tag} found=${Boolean(v)} neverPutFound=${Boolean(never)}`);
      }
      return v;
    },
    async put(tag, env, task) {
      try { await stash.put(tag, env, task); }
      catch (e) { console.error(`ATK-PUT-FAILED ${name} put threw: ${e?.message ?? e}`); throw e; }
      let back;
      try { back = await stash.get(tag); }
      catch (e) { console.error(`ATK-PUT-FAILED ${name} read-back threw: ${e?.message ?? e}`); throw e; }
      if (!back) { console.error(`ATK-PUT-FAILED ${name} tag not read back in the same incarnation`); throw new Error('put did not read back'); }
      if (diag) console.log(`ATK-DIAG ${name} put pid=${process.pid} tag=${tag} readback=ok`);
    },
  };
}
