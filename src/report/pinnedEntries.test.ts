/**
 * A long counterexample keeps in view what its violations stand on (issue 54, item 6: the moment a
 * stale lock was taken over sat inside a folded gap of 1,667 entries). Here a run of ~2,500 entries:
 * worker-0 takes the task's lock and works for 6 s without renewing it; a duplicate delivery polls
 * the lock, finds it older than 4 s, removes it and takes it (worker-0 is alive, only slow), and
 * both send post-a. The takeover is ~800 entries before the first violation: without the pins it is
 * left out of report.md and timeline.html, as it was.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { JournalAdapter, JournalRecords } from '../../model/contract/contract.js';
import { judge } from '../../model/judge.js';
import { parseScenarioText } from '../../simulator/scenario/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import { mutantNamed } from '../journals/mutants/index.js';
import { baseScenario } from '../arbitraries.js';
import { explainText } from './explain.js';
import { pinnedEntries } from './pinnedEntries.js';
import { timelineHtml } from './timeline.js';
import { traceParts } from './traceParts.js';

const LOCK = 'task.lock';

const staleLockTakeover: JournalAdapter = {
  name: 'stale-lock-takeover',
  async run(env, task) {
    const op = task.operations[0];
    if (op?.kind !== 'publish') return;
    // The lock: created exclusively; one older than 4 s is taken for stale and taken over.
    for (;;) {
      try {
        await env.fs.writeFile(LOCK, JSON.stringify({ pid: env.pid, at: await env.clock.now() }), { flag: 'wx' });
        break;
      } catch {
        const held = JSON.parse(await env.fs.readFile(LOCK, 'utf8')) as { at: number };
        if ((await env.clock.now()) - held.at > 4_000) {
          await env.fs.unlink(LOCK);
          continue;
        }
        await env.clock.sleep(20);
      }
    }
    for (let i = 0; i < 600; i++) await env.clock.sleep(10); // 6 s of work, the lock never renewed
    if ((await env.fs.readFile('journal.log', 'utf8').catch(() => undefined)) === undefined) {
      const log = await env.fs.open('journal.log', 'a');
      await log.sync();
      await log.close();
      const dir = await env.fs.open('.', 'r');
      await dir.sync();
      await dir.close();
    }
    const record = async (state: string): Promise<void> => {
      const log = await env.fs.open('journal.log', 'a');
      await log.appendFile(`${op.key} ${state}\n`);
      await log.sync();
      await log.close();
    };
    await record('authorized');
    await record('dispatched');
    const response = await env.fetch(`${task.service.url}/operations/${op.key}`, { method: 'POST', body: op.body, headers: { 'idempotency-key': op.key } });
    await record(response.status === 201 ? 'succeeded' : 'failed');
  },
  inspect(disk) {
    const records: JournalRecords = {};
    for (const line of (disk.readFile('journal.log') ?? '').split('\n')) {
      const [key, state] = line.split(' ');
      if (key && state) ((records[key] ??= { kind: 'operation', history: [] }) as { history: string[] }).history.push(state);
    }
    return records;
  },
};

const inGap = (parts: ReturnType<typeof traceParts>, seq: number): boolean => parts.some((p) => p.kind === 'gap' && p.from <= seq && seq <= p.to);

describe('what a long counterexample\'s violations stand on', () => {
  test('the stale lock\'s takeover, ~800 entries before the violation in a run of ~2,500, stays in report.md and timeline.html, unfolded', async () => {
    const scenario = { ...baseScenario([{ kind: 'publish', key: 'post-a', body: 'a' }]), faults: [{ kind: 'duplicate-delivery' as const, atStep: 3 }] };
    scenario.service.idempotencyMemory = 'none';
    const result = await simulate(staleLockTakeover, scenario, { wholeCalls: true });
    const violations = judge(result);
    expect(result.trace.length).toBeGreaterThan(2_400);
    expect(violations.map((v) => v.code)).toContain('one-effect-per-key');
    const first = Math.min(...violations.map((v) => v.step));
    // The takeover: worker-1's last look at the lock, its removal, and the lock it created in its place.
    const takeover = result.trace.find((e) => e.actor === 'worker-1' && e.op === 'fs.unlink' && e.detail === LOCK);
    if (!takeover) throw new Error('worker-1 never took the lock over');
    const look = result.trace.findLast((e) => e.seq < takeover.seq && e.actor === 'worker-1' && e.op === 'fs.readFile' && e.detail === LOCK);
    const taken = result.trace.find((e) => e.seq > takeover.seq && e.actor === 'worker-1' && e.op === 'fs.writeFile' && e.detail === `${LOCK} open wx`);
    expect(first - takeover.seq).toBeGreaterThan(600);
    const steps = [look?.seq, takeover.seq, taken?.seq].map((seq) => seq as number);
    // The report's old choice (start, end, landmarks) left them in a gap.
    for (const seq of steps) expect(inGap(traceParts(result.trace, violations), seq), `#${seq}`).toBe(true);
    const pinned = pinnedEntries(result, violations);
    for (const seq of steps) expect(pinned.has(seq), `#${seq}`).toBe(true);
    // worker-1's failed attempts (EEXIST) changed nothing and are not pinned: the pins stay few.
    expect(pinned.size).toBeLessThan(40);
    const text = explainText(result, violations);
    const html = timelineHtml(result, violations, 'stale lock');
    for (const seq of steps) {
      expect(text, `#${seq}`).toMatch(new RegExp(`^ {3}${String(seq).padStart(4)} `, 'm'));
      const row = new RegExp(`<tr (data-folded="1" )?id="seq-${seq}"`).exec(html);
      expect(row, `#${seq}`).not.toBeNull();
      expect(row?.[1], `#${seq} folded`).toBeUndefined();
    }
    // The key's own steps (its records becoming durable, the commits) are kept too.
    for (const o of result.observed['post-a'] ?? []) expect(html).toContain(`id="seq-${o.seq}"`);
    for (const e of result.effects) expect(html).toContain(`id="seq-${e.seq}"`);
  });

  test('a lock renamed into place twice (a lease taken by looking, then creating), and the task\'s lease in the store changing hands', async () => {
    const run = async (name: string) => {
      const scenario = parseScenarioText(readFileSync(join(resolve(import.meta.dirname, '../..'), 'reports/mutants/minimal', `${name}.json`), 'utf8'));
      const result = await simulate(mutantNamed(name)?.journal as JournalAdapter, scenario);
      const violations = judge(result);
      const pinned = pinnedEntries(result, violations);
      return { result, pinned, last: Math.max(...violations.map((v) => v.step)), at: (op: string, detail: RegExp) => result.trace.filter((e) => e.op === op && detail.test(e.detail)).map((e) => e.seq) };
    };
    const lock = await run('lease-check-then-create');
    // Both workers' renames onto the lock before the violation (a third, after it, stands for nothing).
    const renames = lock.at('fs.rename', /→ journal\.lock$/).filter((seq) => seq <= lock.last);
    expect(renames.length).toBe(2);
    for (const seq of renames) expect(lock.pinned.has(seq), `#${seq}`).toBe(true);
    const lease = await run('ignores-takeover');
    const changes = lease.result.trace.filter((e) => e.actor === 'store' || e.actor === 'operator').filter((e) => e.seq <= lease.last && / → ok/.test(e.detail) && /lease task-1/.test(e.detail)).map((e) => e.seq);
    expect(changes.length).toBeGreaterThanOrEqual(3);
    for (const seq of changes) expect(lease.pinned.has(seq), `#${seq}`).toBe(true);
  });
});
