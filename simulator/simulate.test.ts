import { describe, expect, test } from 'vitest';
import type { Env, JournalAdapter, Task } from '../model/contract/contract.js';
import { baseScenario } from '../src/arbitraries.js';
import { simulate } from './simulate.js';
import type { Fault, Scenario } from './scenario/scenario.js';

/** A tiny journal built from a function; inspect reports nothing. */
function journal(name: string, run: (env: Env, task: Task) => Promise<void>): JournalAdapter {
  return { name, run, inspect: () => ({}) };
}
function scenario(faults: Fault[] = [], patch: Partial<Scenario> = {}): Scenario {
  return { ...baseScenario([{ kind: 'publish', key: 'a', body: 'body' }]), faults, ...patch };
}

describe('scheduler and clock', () => {
  test('sleep and timeouts run in virtual time: an hour passes in no real time', async () => {
    const seen: number[] = [];
    const result = await simulate(
      journal('sleeper', async (env) => {
        seen.push(await env.clock.now());
        await env.clock.sleep(3_600_000 - 1);
        seen.push(await env.clock.now());
      }),
      scenario([], { bounds: { maxSteps: 100, maxIncarnations: 2, maxVirtualTimeMs: 3_600_000 } }),
    );
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect((seen[1] as number) - (seen[0] as number)).toBe(3_600_000 - 1);
    expect(result.stats.virtualTimeMs).toBe(3_600_000 - 1);
  });

  test('an AbortSignal from env.clock.timeout ends a fetch whose response was dropped', async () => {
    let error: unknown;
    const result = await simulate(
      journal('timeout', async (env, task) => {
        try {
          await env.fetch(`${task.service.url}/operations/a`, { method: 'POST', body: 'body', signal: await env.clock.timeout(500) });
        } catch (e) {
          error = e;
        }
      }),
      scenario([{ kind: 'response', request: 0, fault: 'drop-after-commit' }]),
    );
    expect(error).toMatchObject({ name: 'TimeoutError' });
    expect(result.stats.virtualTimeMs).toBe(500);
    expect(result.effects).toHaveLength(1);
  });

  test('a lost response with no timeout is a deadlock, reported, never a hang', async () => {
    const result = await simulate(
      journal('no-timeout', async (env, task) => {
        await env.fetch(`${task.service.url}/operations/a`, { method: 'POST', body: 'body' });
      }),
      scenario([{ kind: 'response', request: 0, fault: 'drop-after-commit' }]),
    );
    expect(result.outcome.kind).toBe('deadlock');
    expect(result.outcome.kind === 'deadlock' && result.outcome.detail).toContain('worker-0#0 waits on fetch POST /operations/a');
  });

  test('a crash before a step means it never happened; after means it happened and the worker died', async () => {
    const run = async (env: Env): Promise<void> => {
      await env.fs.appendFile('log', `inc ${env.incarnation}\n`);
    };
    const before = await simulate(journal('j', run), scenario([{ kind: 'crash', process: 0, incarnation: 0, step: 0, when: 'before', mode: 'keep-all' }]));
    expect(before.trace.filter((e) => e.op === 'fs.appendFile').map((e) => e.incarnation)).toEqual([0, 1]);
    const after = await simulate(journal('j', run), scenario([{ kind: 'crash', process: 0, incarnation: 0, step: 0, when: 'after', mode: 'keep-all' }]));
    expect(after.crashes).toHaveLength(1);
    expect(after.exits).toEqual([{ pid: 0, incarnation: 1 }]);
  });

  test('a killed incarnation never resumes; the next one starts after the restart delay with no memory', async () => {
    const resumed: number[] = [];
    const result = await simulate(
      journal('j', async (env) => {
        await env.clock.now();
        resumed.push(env.incarnation);
      }),
      scenario([{ kind: 'crash', process: 0, incarnation: 0, step: 0, when: 'after', mode: 'keep-all' }], { restartDelayMs: 250 }),
    );
    expect(resumed).toEqual([1]);
    expect(result.trace.find((e) => e.op === 'start' && e.detail === 'worker-0#1')?.timeMs).toBe(250);
  });

  test('a machine crash kills every live worker and drops unsynced data', async () => {
    const result = await simulate(
      journal('j', async (env) => {
        await env.fs.appendFile('log', `w${env.pid}#${env.incarnation}\n`);
        await env.clock.sleep(10);
      }),
      scenario([
        { kind: 'duplicate-delivery', atStep: 0 },
        { kind: 'crash', process: 1, incarnation: 0, step: 1, when: 'before', mode: 'lose-unsynced' },
      ]),
    );
    expect(result.crashes[0]?.killed).toEqual(['worker-0#0', 'worker-1#0']);
    expect(result.crashes[0]?.disk.lostEntries).toEqual(['/work/log']);
    expect(result.exits.map((e) => `${e.pid}#${e.incarnation}`).sort()).toEqual(['0#1', '1#1']);
  });

  test('schedule choices pick among ready workers; missing choices pick the lowest pid', async () => {
    const run = async (env: Env): Promise<void> => {
      for (let i = 0; i < 3; i++) await env.random();
    };
    const order = async (schedule: number[]) => {
      const r = await simulate(journal('j', run), scenario([{ kind: 'duplicate-delivery', atStep: 0 }], { schedule }));
      return r.trace.filter((e) => e.op === 'random').map((e) => e.actor.slice(-1)).join('');
    };
    expect(await order([])).toBe('000111');
    expect(await order([1, 1, 0])).toBe('110001');
  });

  test('random() reads the scenario, 0 past its end', async () => {
    const drawn: number[] = [];
    await simulate(
      journal('j', async (env) => {
        for (let i = 0; i < 3; i++) drawn.push(await env.random());
      }),
      scenario([], { random: [0.25, 0.5] }),
    );
    expect(drawn).toEqual([0.25, 0.5, 0]);
  });
});

describe('bounds', () => {
  test('a journal that never stops runs out of steps', async () => {
    const result = await simulate(
      journal('spinner', async (env) => {
        for (;;) await env.clock.now();
      }),
      scenario([], { bounds: { maxSteps: 50, maxIncarnations: 3, maxVirtualTimeMs: 1000 } }),
    );
    expect(result.outcome).toMatchObject({ kind: 'bounds-exceeded', bound: 'steps' });
    expect(result.stats.steps).toBe(50);
  });

  test('a journal that always throws runs out of incarnations', async () => {
    const result = await simulate(
      journal('thrower', async (env) => {
        await env.clock.now();
        throw new Error('corrupt journal');
      }),
      scenario([], { bounds: { maxSteps: 500, maxIncarnations: 3, maxVirtualTimeMs: 100_000 } }),
    );
    expect(result.outcome).toMatchObject({ kind: 'bounds-exceeded', bound: 'incarnations' });
    expect(result.exits.map((e) => e.error)).toEqual(['Error: corrupt journal', 'Error: corrupt journal', 'Error: corrupt journal']);
  });

  test('a journal that sleeps forever runs out of virtual time', async () => {
    const result = await simulate(
      journal('sleeper', async (env) => {
        for (;;) await env.clock.sleep(60_000);
      }),
      scenario([], { bounds: { maxSteps: 5000, maxIncarnations: 3, maxVirtualTimeMs: 600_000 } }),
    );
    expect(result.outcome).toMatchObject({ kind: 'bounds-exceeded', bound: 'virtual-time' });
  });
});

describe('escapes from the simulated world', () => {
  test('the global fetch reaches only the fake service: any other host is unreachable, and nothing escapes', async () => {
    let message = '';
    const result = await simulate(
      journal('real-network', async () => {
        try {
          await globalThis.fetch('http://example.com/');
        } catch (e) {
          message = (e as Error).message;
        }
      }),
      scenario(),
    );
    expect(message).toBe('fetch failed: http://example.com/ is unreachable; the simulated network reaches only http://service.durasim');
    expect(result.escapes).toEqual([]);
    expect(result.trace.find((t) => t.op === 'fetch')).toMatchObject({ actor: 'worker-0', step: 0, detail: 'GET http://example.com/' });
  });

  test.each([
    ['Date.now', () => Date.now(), 1_767_225_600_000],
    ['Math.random', () => Math.random(), 0], // allow-ambient: served, the scenario's draw
    ['performance.now', () => performance.now(), 0],
    ['crypto.randomUUID', () => crypto.randomUUID(), 'f3c70a2f-ee5c-4d5b-8d73-54b4b4b4a5bd'],
  ])('%s inside a journal is served by the world: a step, the same value every run, no escape', async (api, call, expected) => {
    const values: unknown[] = [];
    const result = await simulate(
      journal('ambient', async (env) => {
        await env.clock.now();
        values.push(call());
      }),
      scenario(),
    );
    expect(result.escapes).toEqual([]);
    expect(result.trace.find((t) => t.op === api)).toMatchObject({ actor: 'worker-0', step: 1 });
    if (api !== 'crypto.randomUUID') expect(values).toEqual([expected]);
    else expect(values[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test.each([
    ['os.setPriority', async () => (await import('node:os')).setPriority(0)],
    ['child_process.execSync', async () => (await import('node:child_process')).execSync('true')],
    ['fs.watch', async () => (await import('node:fs')).watch('/')],
  ])('%s stays outside the world: refused and recorded', async (api, call) => {
    const result = await simulate(
      journal('ambient', async (env) => {
        await env.clock.now();
        try {
          await call();
        } catch {
          // the journal swallows it; the escape is still recorded
        }
      }),
      scenario(),
    );
    expect(result.escapes.map((e) => e.api)).toEqual([api]);
  });

  test('the globals are restored after a simulation', async () => {
    await simulate(journal('j', async (env) => void (await env.clock.now())), scenario());
    expect(typeof Date.now()).toBe('number');
    expect(globalThis.fetch.name).not.toBe('guarded');
  });

  test('a journal awaiting something outside env is stopped as stalled, never a hang', async () => {
    const result = await simulate(
      journal('waits-forever', async (env) => {
        await env.clock.now();
        await new Promise(() => {});
      }),
      scenario(),
    );
    expect(result.outcome).toEqual({ kind: 'stalled', detail: 'worker-0#0 awaited something outside the simulated world for 10,000 event-loop turns: a promise that never settles?' });
    expect(result.escapes).toEqual([]);
  });
});

describe('service ground truth in the result', () => {
  test('POSTs carry the durable records at arrival', async () => {
    const result = await simulate(
      {
        name: 'records',
        run: async (env, task) => {
          await env.fs.writeFile('mark', 'dispatched');
          await env.fetch(`${task.service.url}/operations/a`, { method: 'POST', body: 'body', signal: await env.clock.timeout(100) });
        },
        inspect: (disk) => ({ a: { kind: 'operation', history: disk.readFile('mark') === undefined ? [] : ['dispatched'] } }),
      },
      scenario(),
    );
    expect(result.requests[0]?.recordsAtArrival).toEqual({ a: { kind: 'operation', history: [] } });
    expect(result.final.visible).toEqual({ a: { kind: 'operation', history: ['dispatched'] } });
  });
});

describe('resources', () => {
  test('a finished simulation leaves no pending stall check behind (it would keep the whole world alive)', async () => {
    const immediates = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Immediate').length;
    const before = immediates();
    const waits = journal('waits', async (env) => {
      await Promise.resolve();
      await env.clock.now();
    });
    for (let i = 0; i < 50; i++) await simulate(waits, scenario());
    expect(immediates()).toBe(before);
  });
});

describe('real I/O from a journal', () => {
  /** Runs `call` inside a journal; returns the run and the message the journal caught. */
  async function calling(call: () => Promise<unknown>): Promise<{ result: Awaited<ReturnType<typeof simulate>>; message: string }> {
    let message = '';
    const result = await simulate(
      journal('real-io', async (env) => {
        await env.clock.now();
        try {
          await call();
        } catch (e) {
          message = (e as Error).message;
        }
      }),
      scenario(),
    );
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(new URL(import.meta.url), 'utf8').length, 'the real node:fs works again outside the simulation').toBeGreaterThan(0);
    return { result, message };
  }

  test.each([
    ['fs.promises.readFile', async () => (await import('node:fs/promises')).readFile('/etc/hostname')],
    ['fs.readFileSync', async () => (await import('node:fs')).readFileSync('/etc/hostname')],
  ])('%s reads the simulated disk, never the real one', async (api, call) => {
    const { result, message } = await calling(call);
    expect(result.escapes).toEqual([]);
    expect(message).toBe("ENOENT: no such file or directory, open '/etc/hostname'");
    expect(result.trace.find((t) => t.op === api)).toMatchObject({ actor: 'worker-0', detail: '/etc/hostname' });
  });

  test('a raw socket is refused and recorded', async () => {
    // Loaded before the run: a first import inside a turn goes through the test runner's own module loader (its MessagePort, refused under a turn), which depends on which test file of this shared worker loaded node:net first.
    const net = await import('node:net');
    const { result, message } = await calling(async () => net.connect(9, '127.0.0.1'));
    expect(result.escapes.map((e) => e.api)).toEqual(['net.connect']);
    expect(message).toBe('Failed to run the journal under simulation: it called net.connect, which would reach the real network. Call fetch(url, init) or env.fetch(url, init): under simulation the only network is the fake service.');
  });
});

describe('a broken simulator invariant', () => {
  test('stops the run and is rethrown; the journal never sees it as an fs error', async () => {
    const { Disk } = await import('./disk/disk.js');
    const { SimulatorInvariantError } = await import('./invariant.js');
    const original = Disk.prototype.handleSync;
    Disk.prototype.handleSync = () => {
      throw new SimulatorInvariantError('a test breaks it');
    };
    const seen: unknown[] = [];
    try {
      await expect(
        simulate(
          journal('swallows', async (env) => {
            const handle = await env.fs.open('log', 'a');
            try {
              await handle.sync();
            } catch (error) {
              seen.push(error);
            }
          }),
          scenario(),
        ),
      ).rejects.toThrow('durasim internal invariant broken: a test breaks it');
    } finally {
      Disk.prototype.handleSync = original;
    }
    expect(seen).toEqual([]);
  });
});
