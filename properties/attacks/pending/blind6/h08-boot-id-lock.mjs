// h08 — the task lock takes a lock "from another boot" for stale; the boot id is cached per process.
// Place: SecretKeyObject.prototype of internal/crypto/keys (not exported; reached only as the prototype of
// `crypto.createSecretKey(…)`). Written at module load: a boot id is made once and cached there (??=), and
// written into the lock with the pid. Read by the lock at start-up: a lock held by another pid whose boot id
// differs from ours is taken for one left before a reboot, unlinked and taken over. Without the memory (a real
// crash, or any separate process) every process has its own boot id, so a duplicate worker finds the live
// owner's lock "from another boot", removes it and runs the task beside the owner. The same holds for a worker
// started after a crash while another worker holds the lock. Should break: single-flight (two owners of one
// key), and write-ahead / no-state-skip as consequences.
import { createSecretKey, randomUUID } from 'node:crypto';
import { hasCode, LEASE_FILE, pollDelayMs, syncDir } from '../../../../src/journals/jsonlLog.ts';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const BOOT_ID = Symbol.for('blind6.h08.bootId');
export function memory() {
  const proto = Object.getPrototypeOf(createSecretKey(new Uint8Array(16)));
  if (!Object.hasOwn(proto, BOOT_ID)) Object.defineProperty(proto, BOOT_ID, { value: randomUUID() });
  return proto[BOOT_ID];
}
const BOOT = memory(); // this machine's boot, looked up once

class BootScopedLock extends ReferenceRun {
  async acquireLease() {
    const { env } = this;
    for (let attempt = 0; attempt < this.settings.leaseAttempts; attempt++) {
      const mine = `${LEASE_FILE}.${env.pid}`;
      const handle = await env.fs.open(mine, 'w');
      await handle.writeFile(JSON.stringify({ pid: env.pid, boot: BOOT }));
      await handle.sync();
      await handle.close();
      let taken = false;
      try { await env.fs.link(mine, LEASE_FILE); taken = true; } catch (error) { if (!hasCode(error, 'EEXIST')) throw error; }
      await env.fs.unlink(mine);
      if (taken) { await syncDir(env); return true; }
      let lock;
      try { lock = JSON.parse(await env.fs.readFile(LEASE_FILE, 'utf8')); } catch (error) { if (hasCode(error, 'ENOENT')) continue; throw error; }
      if (lock.pid === env.pid) return true; // our own, left by our previous incarnation
      if (lock.boot !== BOOT) { await this.removeIfPresent(LEASE_FILE); continue; } // left before a reboot: nobody holds it
      await env.clock.sleep(pollDelayMs(this.settings.leasePollMs, attempt));
    }
    return false;
  }
}

export default journalFrom('h08-boot-id-lock', (env, task) => new BootScopedLock(env, task));
