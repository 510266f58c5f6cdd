/**
 * What a journal writes to its stdout and stderr (console.log, console.error, process.stdout.write)
 * is kept in the trace: an entry of its process and incarnation where it was written, not a step
 * (no crash lands on it, no step number moves), the same on every run, bounded per write and per run.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import type { Env, JournalAdapter } from '../../model/contract/contract.js';
import { baseScenario } from '../../src/arbitraries.js';
import type { Fault } from '../scenario/scenario.js';
import { simulate } from '../simulate.js';
import { formatTraceEntry } from './trace.js';
import { OUTPUT_ENTRY_CHARS_MAX, OUTPUT_RUN_CHARS_MAX } from './recorder.js';

function journal(run: (env: Env) => Promise<void>): JournalAdapter {
  return { name: 'console-output', run, inspect: () => ({}) };
}
const scenario = (faults: Fault[] = []) => ({ ...baseScenario([]), faults });

/** The same work, with or without its console output. */
const work = (log: boolean) =>
  journal(async (env) => {
    if (log) console.log('starting', { attempt: 1 });
    await fsp.writeFile('a.txt', 'a');
    if (log) {
      console.error('wrote a.txt');
      process.stdout.write(Buffer.from('raw bytes\n'));
      await new Promise<void>((written) => process.stderr.write('with a callback\n', () => written()));
    }
    await env.clock.sleep(10);
    if (log) console.warn('line one\nline two');
    await fsp.writeFile('b.txt', 'b');
  });

describe("a journal's console output", () => {
  test('is kept in the trace at the moment it was written, under its process, in order', async () => {
    const result = await simulate(work(true), scenario());
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect(result.escapes).toEqual([]);
    const output = result.trace.filter((t) => t.op === 'stdout' || t.op === 'stderr');
    expect(output.map((t) => [t.actor, t.incarnation, t.op, t.detail])).toEqual([
      ['worker-0', 0, 'stdout', 'starting { attempt: 1 }'],
      ['worker-0', 0, 'stderr', 'wrote a.txt'],
      ['worker-0', 0, 'stdout', 'raw bytes'],
      ['worker-0', 0, 'stderr', 'with a callback'],
      ['worker-0', 0, 'stderr', 'line one\nline two'],
    ]);
    const ops = result.trace.filter((t) => t.actor === 'worker-0').map((t) => t.op);
    expect(ops.indexOf('stdout')).toBeLessThan(ops.indexOf('fs.promises.writeFile'));
    expect(ops.lastIndexOf('stderr')).toBeLessThan(ops.lastIndexOf('fs.promises.writeFile'));
    for (const entry of output) expect(entry.step).toBeUndefined();
    // A detail of several lines goes on under itself.
    const warned = formatTraceEntry(output[4] as (typeof output)[number]).split('\n');
    expect(warned).toHaveLength(2);
    expect((warned[1] as string).trimStart()).toBe('line two');
    expect(warned[1]?.length).toBe(warned[0]?.length);
  });

  test('is not a step: the steps, their numbers and where a crash lands are those of the same journal writing nothing', async () => {
    const crash: Fault[] = [{ kind: 'crash', process: 0, incarnation: 0, step: 1, when: 'after', mode: 'keep-all' }];
    const [quiet, loud] = [await simulate(work(false), scenario(crash)), await simulate(work(true), scenario(crash))];
    const steps = (trace: typeof quiet.trace) => trace.filter((t) => t.op !== 'stdout' && t.op !== 'stderr').map(({ seq: _seq, ...rest }) => rest);
    expect(steps(loud.trace)).toEqual(steps(quiet.trace));
    expect(loud.crashes.length).toBe(1);
    expect(loud.traceHash).not.toBe(quiet.traceHash); // what was written is part of the run
  });

  test("written to descriptors 1 and 2 (as pino's sonic-boom writes) it is the process's output too; those are pipes: no fsync; stdin reads as empty", async () => {
    const seen: string[] = [];
    const result = await simulate(
      journal(async () => {
        fs.writeSync(1, 'sync to 1\n');
        await new Promise<void>((done) => fs.write(2, Buffer.from('callback to 2\n'), () => done()));
        fs.writeFileSync(1, 'whole to 1\n');
        fs.writevSync(2, [Buffer.from('vectored '), Buffer.from('to 2\n')]);
        try {
          fs.fsyncSync(1);
        } catch (error) {
          seen.push((error as Error).message);
        }
        seen.push(`stdin gave ${fs.readSync(0, Buffer.alloc(8))} bytes`);
      }),
      scenario(),
    );
    expect(result.escapes).toEqual([]);
    expect(result.trace.filter((t) => t.op === 'stdout' || t.op === 'stderr').map((t) => `${t.op} ${t.detail}`)).toEqual(['stdout sync to 1', 'stderr callback to 2', 'stdout whole to 1', 'stderr vectored to 2']);
    expect(result.trace.find((t) => t.op === 'fs.writeSync')?.detail).toBe('stdout "sync to 1\\n"');
    expect(seen).toEqual(['EINVAL: invalid argument, fsync', 'stdin gave 0 bytes']);
  });

  test('is the same on every run', async () => {
    const hashes = new Set<string>();
    for (let i = 0; i < 3; i++) hashes.add((await simulate(work(true), scenario())).traceHash);
    expect(hashes.size).toBe(1);
  });

  test('is bounded: a write keeps its first characters, a run its first characters in all, and says what it left out', async () => {
    const result = await simulate(
      journal(async () => {
        console.log('x'.repeat(OUTPUT_ENTRY_CHARS_MAX + 500));
        for (let i = 0; i < 100; i++) console.log('y'.repeat(OUTPUT_ENTRY_CHARS_MAX));
        await fsp.writeFile('done.txt', 'done');
      }),
      scenario(),
    );
    const output = result.trace.filter((t) => t.op === 'stdout');
    expect(output[0]?.detail).toBe(`${'x'.repeat(OUTPUT_ENTRY_CHARS_MAX)} … (500 more characters not kept)`);
    const kept = output.reduce((sum, t) => sum + t.detail.replace(/ … \(.*\)$/, '').length, 0);
    expect(kept).toBe(OUTPUT_RUN_CHARS_MAX);
    expect(output.at(-1)?.detail).toMatch(new RegExp(`nothing more of this run's output is kept past ${OUTPUT_RUN_CHARS_MAX} characters\\)$`));
    expect(output.length).toBeLessThanOrEqual(Math.ceil(OUTPUT_RUN_CHARS_MAX / OUTPUT_ENTRY_CHARS_MAX) + 1);
    expect(result.trace.some((t) => t.op === 'fs.promises.writeFile')).toBe(true);
  });
});
