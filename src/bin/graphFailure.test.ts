/**
 * A module graph that cannot serve is durasim's own failure, said with its file and its fix
 * (graph.mjs's ownFailure: the command exits 5, a pool worker's boot is said in these words): a
 * graph that throws as it loads, one that lacks the module asked for (once undefined, and the
 * caller failed on it with a TypeError).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, expect, test, vi } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'durasim-graph-failure-'));
const REINSTALL = 'Reinstall durasim (npm install durasim; in a clone of its repository, npm install and git checkout the file); if it fails again, report it with the command line you ran.';

/** graph.mjs afresh (its graph is chosen once per thread), made to load `text` as the graph. */
async function graphOf(name: string, text: string): Promise<typeof import('./graph.mjs')> {
  const file = join(dir, name);
  writeFileSync(file, text);
  const graph = await import('./graph.mjs');
  graph.useGraphFile(file);
  return graph;
}

beforeEach(() => {
  vi.resetModules();
});

test('a graph that throws as it loads: its file and what it threw, and the fix (from the sources: delete it, it is built again)', async () => {
  const file = join(dir, 'throws.mjs');
  const graph = await graphOf('throws.mjs', "throw new Error('half written');\n");
  const error = await graph.loadGraph().catch((e: unknown) => e);
  expect((error as Error).message).toBe(`Failed to load durasim's module graph: ${file} threw Error: half written. Delete ${file} (it is built again from the sources on the next run); if it fails again, report it with the command line you ran.`);
  expect(error).toMatchObject({ ownFailure: true, action: "load durasim's module graph" });
});

test('a graph without the module asked for: the module and the graph, and the fix', async () => {
  const file = join(dir, 'empty.mjs');
  const graph = await graphOf('empty.mjs', 'export const MODULES = {};\n');
  const error = await graph.ownModuleForEntry('src/pool/poolWorker', import.meta.url, '../pool/poolWorker').catch((e: unknown) => e);
  expect((error as Error).message).toBe(`Failed to load durasim's module src/pool/poolWorker: its module graph ${file} holds no such module. ${REINSTALL}`);
});
