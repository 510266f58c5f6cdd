/**
 * The architecture is the import direction (principle 4), held here: no import circle anywhere
 * in src/, simulator/ or model/ (type imports count), model/ imports nothing of ours, simulator/
 * never imports src/, and the simulator's rooms import only the rooms below them. docs/
 * architecture.md draws the same rooms: the test reads its table, so the page cannot drift.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'fixtures') out.push(...sources(path));
    } else if (/\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** Every relative import of a file (static, dynamic, re-exports, type-only), as repository paths. */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(/(?:^|[\s;])(?:import|export)\s(?:[^'"]*?\sfrom\s*)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm)) {
    const spec = match[1] ?? match[2];
    if (spec === undefined) continue;
    const path = normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts');
    if (known.has(path)) out.push(path);
  }
  return out;
}

const files = ['src', 'simulator', 'model'].flatMap(sources);
const known = new Set(files);
const graph = new Map(files.map((file) => [file, importsOf(file, known)]));

/** Tarjan's strongly connected components with more than one file: the import circles. */
function circles(): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const ix = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    ix.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!ix.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v) as number, ix.get(w) as number));
    }
    if (low.get(v) === ix.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of files) if (!ix.has(file)) visit(file);
  return found;
}

/** The simulator's rooms as docs/architecture.md lists them, each with the rooms it may import. */
function roomsOfTheDoc(): Map<string, string[]> {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const rooms = new Map<string, string[]>();
  for (const row of doc.matchAll(/^\| `simulator\/([a-z]+)\/` \|([^|]+)\|([^|]*)\|$/gm)) {
    const below = (row[3] ?? '').match(/`[a-z]+\/`/g) ?? [];
    rooms.set(row[1] as string, below.map((name) => name.slice(1, -2)));
  }
  return rooms;
}

const roomOf = (file: string): string | undefined => (file.startsWith('simulator/') && file.split('/').length > 2 ? file.split('/')[1] : undefined);

describe('the import direction', () => {
  test('there is no import circle in src/, simulator/ or model/', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(circles()).toEqual([]);
  });

  test('model/ imports nothing of ours, simulator/ never imports src/', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        if (file.startsWith('model/') && !target.startsWith('model/')) wrong.push(`${file} → ${target}`);
        if (file.startsWith('simulator/') && target.startsWith('src/')) wrong.push(`${file} → ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("each simulator room imports only the rooms docs/architecture.md puts below it; simulate.ts is on top", () => {
    const rooms = roomsOfTheDoc();
    const onDisk = readdirSync(join(ROOT, 'simulator'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect([...rooms.keys()].sort()).toEqual(onDisk);
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      if (!file.startsWith('simulator/')) continue;
      const room = roomOf(file);
      for (const target of imports) {
        if (!target.startsWith('simulator/')) continue;
        const into = roomOf(target);
        // invariant.ts (the simulator's own assertion) is for every room; simulate.ts, on top, for none.
        const allowed = target === 'simulator/invariant.ts' || (into !== undefined && (room === undefined ? file === 'simulator/simulate.ts' : room === into || (rooms.get(room) ?? []).includes(into)));
        if (!allowed) wrong.push(`${file} → ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('simulator/ has about a dozen entries at its top (its rooms, simulate.ts and their tests)', () => {
    expect(readdirSync(join(ROOT, 'simulator')).length).toBeLessThanOrEqual(14);
  });
});
