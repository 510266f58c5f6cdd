/**
 * Principle 2, held: every scenario of the saved trace-hash corpus (reports/trace-corpus.jsonl.gz)
 * replays the trace it gave when it was saved. A refactor of the simulator that changes one trace
 * fails here, naming the scenario; a change that must alter traces bumps the scenario format
 * version and adds the new version's draws beside the older ones (npm run trace-corpus -- --write).
 * Here every scenario file the repository keeps and every fifth generated draw replay (the five-
 * minute suite); CI replays the whole corpus as a job of its own (.ci/run: npm run trace-corpus).
 */
import { describe, expect, test } from 'vitest';
import { MUTANT_NAMES } from '../src/isolation/journalRef.js';
import { readTraceCorpus, replayTraceCorpus } from '../src/runner/traceCorpus.js';
import { SCENARIO_VERSION } from '../simulator/scenario/scenario.js';

const corpus = readTraceCorpus();
const journals = [...new Set(corpus.map((entry) => entry.journal))];

describe('the trace-hash corpus', () => {
  test('covers every fault family, every built-in journal, the Node-API example, a process of concurrent chains, both transports and fresh modules', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(2000);
    const kinds = new Set(corpus.flatMap((entry) => ((entry.scenario as { faults?: { kind: string }[] }).faults ?? []).map((fault) => fault.kind)));
    expect([...kinds].sort()).toEqual(['cancel', 'concurrent-call', 'crash', 'duplicate-delivery', 'input-change', 'io-error', 'pause', 'response', 'service-restart', 'store-call', 'store-edit', 'store-restart', 'takeover', 'user-edit']);
    expect(journals).toEqual(expect.arrayContaining(['reference', 'coordinated', 'examples/node-journal/journal.ts', 'properties/fixtures/concurrentChains.ts', 'no-fsync', 'repairs-projection']));
    expect(journals).toEqual(expect.arrayContaining([...MUTANT_NAMES]));
    expect(journals.length).toBe(49);
    // Every format version, each replayed under its own rules (format 2 split Node's whole-file calls into steps; format 3, the
    // current one, follows Node 22 and 24 and loads a journal's modules as they do: the SQLite journals' entries are of it).
    expect(new Set(corpus.map((entry) => (entry.scenario as { version: number }).version))).toEqual(new Set(Array.from({ length: SCENARIO_VERSION }, (_, i) => i + 1)));
    expect(journals).toEqual(expect.arrayContaining(['properties/fixtures/nodeFileApiJournal.ts', 'properties/fixtures/inPlaceStateJournal.ts']));
    expect(new Set(corpus.map((entry) => entry.transport))).toEqual(new Set(['direct', 'msw']));
    expect(new Set(corpus.map((entry) => entry.modules))).toEqual(new Set(['shared', 'fresh']));
  });

  for (const journal of journals) {
    const entries = corpus.filter((entry, i) => entry.journal === journal && (!entry.source.startsWith('generated') || i % 5 === 0));
    test(`${journal}: ${entries.length} scenarios replay their saved trace hashes`, async () => {
      const differences = await replayTraceCorpus(entries);
      expect(differences.map((d) => `${d.entry.source} (${d.entry.modules}, ${d.entry.transport}): ${d.entry.traceEntries} → ${d.now.traceEntries} entries, ${d.entry.outcome} → ${d.now.outcome}`)).toEqual([]);
    });
  }
});
