/**
 * Node's own APIs served by the simulated world: a journal written against node:fs, timers, Date,
 * randomness and fetch runs in virtual time on the crash-consistent disk, every call a step, the
 * same way every run, and a crash at a synchronous call ends the process there.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as fsp from 'node:fs/promises';
import * as timers from 'node:timers';
import * as timersPromises from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { baseScenario } from '../../../src/arbitraries.js';
import type { DiskView, Env, JournalAdapter, JournalRecords, Task } from '../../../model/contract/contract.js';
import type { Fault, Scenario } from '../../scenario/scenario.js';
import { simulate } from '../../simulate.js';

/** A journal from a function; inspect reports the text of out.txt as a record's digest. */
function journal(run: (env: Env, task: Task) => Promise<void>): JournalAdapter {
  return {
    name: 'node-api',
    run,
    inspect: (disk: DiskView): JournalRecords => {
      const text = disk.readFile('out.txt');
      return text === undefined ? {} : { out: { kind: 'operation', history: [], digest: text } };
    },
  };
}
function scenario(faults: Fault[] = [], patch: Partial<Scenario> = {}): Scenario {
  return { ...baseScenario([{ kind: 'publish', key: 'a', body: 'body' }]), faults, ...patch };
}
const crash = (step: number, when: 'before' | 'after', mode: 'keep-all' | 'lose-unsynced' = 'lose-unsynced', incarnation = 0): Fault => ({ kind: 'crash', process: 0, incarnation, step, when, mode });
const digestOf = (records: Record<string, unknown>): unknown => (records.out as { digest?: string } | undefined)?.digest;

describe('timers and the clock', () => {
  test('a sleep through setTimeout runs in virtual time; the timer fires as the process own code', async () => {
    const seen: number[] = [];
    const result = await simulate(
      journal(async () => {
        seen.push(Date.now());
        await new Promise((resolve) => setTimeout(resolve, 60_000)); // allow-ambient: served by the world
        seen.push(Date.now());
      }),
      scenario(),
    );
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect(result.escapes).toEqual([]);
    expect(seen).toEqual([1_767_225_600_000, 1_767_225_660_000]);
    expect(result.stats.virtualTimeMs).toBe(60_000);
    expect(result.trace.filter((t) => t.actor === 'worker-0').map((t) => t.op)).toEqual(['Date.now', 'setTimeout', 'timer', 'Date.now']);
  });

  test('setInterval ticks until cleared; timers/promises and AbortSignal.timeout settle on the virtual clock', async () => {
    let ticks = 0;
    let aborted = '';
    const result = await simulate(
      journal(async () => {
        await new Promise<void>((resolve) => {
          const interval = setInterval(() => { // allow-ambient: served by the world
            if (++ticks === 3) {
              clearInterval(interval);
              resolve();
            }
          }, 1000);
        });
        await timersPromises.setTimeout(500);
        try {
          await timersPromises.setTimeout(10_000, undefined, { signal: AbortSignal.timeout(250) });
        } catch (error) {
          aborted = (error as Error).name;
        }
      }),
      scenario(),
    );
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect(ticks).toBe(3);
    expect(aborted).toBe('AbortError');
    expect(result.stats.virtualTimeMs).toBe(3000 + 500 + 250);
  });

  test('a timeout heard only through AbortSignal.any runs its listener as the process own code, and the chain it starts runs before the world goes on', async () => {
    const result = await simulate(
      journal(async () => {
        const derived = AbortSignal.any([AbortSignal.timeout(100)]);
        derived.addEventListener('abort', () => {
          void (async () => {
            await null;
            await null;
            await fsp.writeFile('out.txt', `aborted at ${Date.now()}`);
          })();
        });
        await timersPromises.setTimeout(1000);
      }),
      scenario(),
    );
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect(result.escapes).toEqual([]);
    expect(digestOf(result.final.visible)).toBe(`aborted at ${1_767_225_600_000 + 100}`);
    const worker = result.trace.filter((t) => t.actor === 'worker-0');
    expect(worker.map((t) => `${t.timeMs} ${t.op}`)).toEqual(['0 AbortSignal.timeout', '0 timers.promises.setTimeout', '100 Date.now', '100 fs.promises.writeFile', '100 fs.promises.writeFile', '100 fs.promises.writeFile', '1000 timer']);
  });

  test("node:timers' own clearTimeout cancels a served timer: it never fires", async () => {
    let fired = false;
    const result = await simulate(
      journal(async () => {
        timers.clearTimeout(timers.setTimeout(() => (fired = true), 5000));
        await timersPromises.setTimeout(10_000); // long past when it would have fired
      }),
      scenario(),
    );
    expect(fired).toBe(false);
    expect(result.stats.virtualTimeMs).toBe(10_000);
  });

  test('a timer dies with its process: the restarted incarnation starts afresh', async () => {
    const fired: number[] = [];
    const result = await simulate(
      journal(async (env) => {
        setTimeout(() => fired.push(env.incarnation), 1000); // allow-ambient: served by the world
        await fsp.writeFile('out.txt', `incarnation ${env.incarnation}`);
        await new Promise((resolve) => setTimeout(resolve, 2000)); // allow-ambient: served by the world
      }),
      scenario([crash(1, 'after', 'keep-all')]),
    );
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect(fired).toEqual([1]);
  });
});

describe('node:fs on the crash-consistent disk', () => {
  test('the promise API with a FileHandle: what was fsynced survives a machine crash, what was not is lost', async () => {
    const result = await simulate(
      journal(async (env) => {
        if (env.incarnation > 0) return;
        const fh = await fsp.open('out.txt', 'w');
        await fh.writeFile('durable\n');
        await fh.sync();
        await fh.close();
        const dir = await fsp.open('.', 'r');
        await dir.sync();
        await dir.close();
        await fsp.appendFile('out.txt', 'lost\n'); // step 7: never fsynced
      }),
      scenario([crash(7, 'after')]),
    );
    expect(result.escapes).toEqual([]);
    expect(result.crashes).toHaveLength(1);
    expect(digestOf(result.final.durable)).toBe('durable\n');
  });

  test('the synchronous API: each call runs at once in the caller\'s stack (writeFileSync as Node\'s open, write, close); a crash before one means it never happened', async () => {
    const result = await simulate(
      journal(async (env) => {
        if (env.incarnation > 0) return;
        fs.writeFileSync('out.txt', 'first\n');
        const fd = fs.openSync('out.txt', 'a');
        fs.writeSync(fd, 'second\n');
        fs.closeSync(fd);
      }),
      scenario([crash(4, 'before', 'keep-all')]),
    );
    expect(result.trace.filter((t) => t.actor === 'worker-0' && t.incarnation === 0 && t.step !== undefined).map((t) => `${t.step} ${t.op}`)).toEqual(['0 fs.writeFileSync', '1 fs.writeFileSync', '2 fs.writeFileSync', '3 fs.openSync', '4 fs.writeSync']);
    expect(digestOf(result.final.visible)).toBe('first\n');
  });

  test('a process that swallows its own crash runs on as a ghost that reaches nothing', async () => {
    let ghostError = '';
    const result = await simulate(
      journal(async (env) => {
        if (env.incarnation > 0) return;
        try {
          fs.writeFileSync('out.txt', 'before the crash\n');
        } catch (error) {
          ghostError = (error as Error).name;
          try {
            fs.writeFileSync('out.txt', 'from the ghost\n');
          } catch {
            // refused again
          }
          void fsp.writeFile('out.txt', 'from the ghost, later\n');
        }
      }),
      scenario([crash(2, 'after', 'keep-all')]), // after writeFileSync's close
    );
    expect(ghostError).toBe('ProcessEnded');
    expect(result.escapes).toEqual([]);
    expect(digestOf(result.final.visible)).toBe('before the crash\n');
  });

  test('the callback API delivers as the process own code, after the step runs', async () => {
    let text = '';
    await simulate(
      journal(async () => {
        await fsp.writeFile('out.txt', 'hello');
        text = await new Promise<string>((resolve, reject) => fs.readFile('out.txt', 'utf8', (error, data) => (error ? reject(error) : resolve(data))));
      }),
      scenario(),
    );
    expect(text).toBe('hello');
  });

  test('file times are virtual: a stat says when the write happened on the virtual clock', async () => {
    let mtimeMs = 0;
    await simulate(
      journal(async () => {
        await timersPromises.setTimeout(5000);
        await fsp.writeFile('out.txt', 'x');
        mtimeMs = (await fsp.stat('out.txt')).mtimeMs;
      }),
      scenario(),
    );
    expect(mtimeMs).toBe(1_767_225_605_000);
  });
});

describe('whose code it is', () => {
  test('two workers whose promise chains interleave: every served call is charged to the worker that made it', async () => {
    const calls: Record<number, number> = {};
    const result = await simulate(
      journal(async (env) => {
        for (let i = 0; i < 3; i++) {
          await fsp.appendFile(`log-${env.pid}`, 'x');
          await Promise.resolve();
          Date.now();
          calls[env.pid] = (calls[env.pid] ?? 0) + 1;
        }
      }),
      scenario([{ kind: 'duplicate-delivery', atStep: 1 }], { schedule: [1, 0, 1, 0, 1, 0] }),
    );
    expect(result.escapes).toEqual([]);
    expect(calls).toEqual({ 0: 3, 1: 3 });
    for (const pid of [0, 1]) {
      const steps = result.trace.filter((t) => t.actor === `worker-${pid}` && t.step !== undefined);
      expect(steps.filter((t) => t.op === 'Date.now')).toHaveLength(3);
      expect(steps.filter((t) => t.op === 'fs.promises.appendFile').map((t) => t.detail)).toEqual([0, 1, 2].flatMap(() => [`log-${pid} open a`, `log-${pid} write "x"`, `log-${pid} close`]));
    }
  });

  test('the same scenario gives the same trace, byte for byte', async () => {
    const j = journal(async () => {
      const id = crypto.randomUUID();
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 100))); // allow-ambient: served by the world
      await fsp.writeFile('out.txt', `${id} ${new Date().toISOString()}`);
    });
    const s = scenario([], { random: [0.5, 0.25] });
    const [a, b] = [await simulate(j, s), await simulate(j, s)];
    expect(a.traceHash).toBe(b.traceHash);
    expect(digestOf(a.final.durable)).toBe(digestOf(b.final.durable));
  });
});

describe('the node:http client', () => {
  /** One request through node:http, as a journal would make it; what it saw comes back. */
  async function viaHttp(faults: Fault[], makeRequest: (url: string, seen: string[], done: () => void) => void): Promise<{ seen: string[]; result: Awaited<ReturnType<typeof simulate>> }> {
    const seen: string[] = [];
    const result = await simulate(
      journal(async (_env, task) => {
        await new Promise<void>((resolve) => makeRequest(task.service.url, seen, resolve));
      }),
      scenario(faults),
    );
    expect(result.escapes).toEqual([]);
    return { seen, result };
  }

  test('a POST reaches the fake service as a step; the response streams back as an IncomingMessage', async () => {
    const { seen, result } = await viaHttp([], (url, seen, done) => {
      const request = http.request(`${url}/operations/a`, { method: 'POST', headers: { 'idempotency-key': 'a' } }, (response) => {
        seen.push(`status ${response.statusCode} ${response.headers['content-type']}`);
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          seen.push((JSON.parse(text) as { state: string }).state);
          done();
        });
      });
      request.end('body');
    });
    expect(seen).toEqual(['status 201 application/json', 'committed']);
    expect(result.effects.map((e) => e.key)).toEqual(['a']);
    expect(result.trace.find((t) => t.op === 'fetch')).toMatchObject({ actor: 'worker-0', step: 0, detail: 'POST /operations/a' });
  });

  test('another host is not found; a dropped response times out on the virtual clock; a cut body is aborted', async () => {
    const other = await viaHttp([], (_url, seen, done) => {
      http.get('http://example.com/', () => seen.push('a response?')).on('error', (error: NodeJS.ErrnoException) => {
        seen.push(error.code ?? '');
        done();
      });
    });
    expect(other.seen).toEqual(['ENOTFOUND']);
    const dropped = await viaHttp([{ kind: 'response', request: 0, fault: 'drop-after-commit' }], (url, seen, done) => {
      const request = http.request(`${url}/operations/a`, { method: 'POST', timeout: 1500 });
      request.on('timeout', () => {
        seen.push('timeout');
        request.destroy();
        done();
      });
      request.end('body');
    });
    expect(dropped.seen).toEqual(['timeout']);
    expect(dropped.result.stats.virtualTimeMs).toBe(1500);
    const cut = await viaHttp([{ kind: 'response', request: 0, fault: 'cut-body' }], (url, seen, done) => {
      http.request(`${url}/operations/a`, { method: 'POST' }, (response) => {
        response.on('data', () => seen.push('data'));
        response.on('aborted', () => seen.push('aborted'));
        response.on('error', (error: NodeJS.ErrnoException) => {
          seen.push(error.code ?? '');
          done();
        });
      }).end('body');
    });
    expect(cut.seen).toEqual(['data', 'aborted', 'ECONNRESET']);
  });
});
