// Not an attack: runs each attack's stash put/get in plain Node (no durasim) to check the stash itself works.
const files = process.argv.slice(2);
for (const f of files) {
  const m = await import('./' + f);
  const t = 'atk-mem:selftest:0';
  try { const before = await m.stash.get(t); await m.stash.put(t); const after = await m.stash.get(t); const other = await m.stash.get('atk-mem:other:1');
    console.log(f, { before: !!before, after: !!after, otherTag: !!other }); } catch (e) { console.log(f, 'ERR', e.message); }
}
