/**
 * A crash fault strikes: a process kill (keep-all) kills the process at the step, a machine crash
 * (every other mode) every live worker, and the disk drops what it held volatile as the mode says.
 * What the step made durable is observed first; then what was lost, the records and files on the
 * images right after (the judge's crash evidence), and each victim restarts later, within the bound.
 */
import { atVirtualTime } from '../sandbox/ambientGuard.js';
import { describeLoss, gapsOf } from '../disk/crashReport.js';
import type { CrashFault } from '../scenario/scenario.js';
import type { CrashHost } from './host.js';
import { filesOn } from './inspection.js';
import { killProcess } from './processEnd.js';
import type { Proc } from './proc.js';
import { rel } from './trace.js';

/** `fault` strikes `proc` now; `imageDigest`: take a digest of the whole disk right after it (WorldOptions.crashDigests). */
export function crashProcess(world: CrashHost, proc: Proc, fault: CrashFault, imageDigest: boolean): void {
  // What the step just made durable is durable: observed before the crash takes anything back.
  world.inspection.observeDurable(world.trace.length - 1);
  const machine = fault.mode !== 'keep-all';
  const victims = machine ? world.procs.filter((p) => p.alive && !p.done) : [proc];
  const where = fault.at ? `its call #${fault.at.occurrence} that mentions ${fault.at.mentions}` : `step ${fault.step}`;
  world.record({ actor: 'supervisor', op: 'crash', detail: `${proc.name} ${fault.when} ${where} (${fault.mode}${machine ? ': machine crash' : ': process kill'}); killed ${victims.map((p) => p.name).join(', ')}` });
  for (const victim of victims) killProcess(world, victim);
  for (const victim of victims) world.disk.closeOwnedBy(victim.pid);
  const disk = atVirtualTime(world.clock.epochMs, () => world.disk.crash(fault));
  if (machine) {
    const lost = describeLoss(disk, rel);
    world.record({ actor: 'disk', op: 'crash', detail: lost.length > 0 ? lost.join('; ') : 'nothing unsynced was lost' });
  }
  world.beat(world.globalStep, undefined, 'inspect');
  const { durable: records, visible } = world.inspection.observeBoth(world.trace.length - 1, machine);
  const survivors = world.procs.filter((p) => p.alive && !p.done).map((p) => p.name);
  const files = filesOn(world.disk.durableView(), world.paths);
  world.crashes.push({ seq: world.trace.length - 1, timeMs: world.clock.nowMs, fault, killed: victims.map((p) => p.name), survivors, disk, gaps: gapsOf(disk, rel), records, visible, files, ...(imageDigest ? { imageDigest: world.disk.imageDigest() } : {}) });
  for (const victim of victims) world.scheduleRestart(victim);
}
