// The base journal every probe that expects a clean verdict wraps: examples/node-journal/journal.ts (the
// correct Node-API journal the README says to copy), its types stripped by esbuild. Not a probe.
import { createHash } from "node:crypto";
import { access, link, open, readFile, rename, unlink } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
const LOG = "journal.jsonl";
const LOCK = "journal.lock";
const FINAL = /* @__PURE__ */ new Set(["succeeded", "conflict", "failed", "blocked", "cancelled"]);
const sha256 = (text) => createHash("sha256").update(text).digest("hex");
const codeOf = (error) => error?.code;
async function readText(path) {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return void 0;
    throw error;
  }
}
const unless = (...codes) => (error) => {
  if (!codes.includes(codeOf(error))) throw error;
};
async function removeIfPresent(path) {
  await unlink(path).catch(unless("ENOENT"));
}
async function fsyncPath(path) {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
async function writeDurably(path, text) {
  const handle = await open(path, "w");
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
function parse(text) {
  return text.split("\n").flatMap((line) => {
    try {
      const entry = JSON.parse(line);
      return typeof entry?.key === "string" && typeof entry.state === "string" ? [entry] : [];
    } catch {
      return [];
    }
  });
}
class Log {
  handle;
  byKey = /* @__PURE__ */ new Map();
  async open() {
    const text = await readText(LOG) ?? "";
    const entries = parse(text);
    if (text !== "") {
      await writeDurably(`${LOG}.rewrite`, entries.map((e) => `${JSON.stringify(e)}
`).join(""));
      await rename(`${LOG}.rewrite`, LOG);
      await fsyncPath(".");
    }
    this.handle = await open(LOG, "a");
    if (text === "") {
      await this.handle.sync();
      await fsyncPath(".");
    }
    for (const entry of entries) this.remember(entry);
  }
  history(key) {
    return this.byKey.get(key) ?? [];
  }
  last(key) {
    return this.history(key).at(-1);
  }
  async add(entry) {
    await this.handle?.appendFile(`${JSON.stringify(entry)}
`);
    await this.handle?.sync();
    this.remember(entry);
  }
  async close() {
    await this.handle?.close();
  }
  remember(entry) {
    this.byKey.set(entry.key, [...this.history(entry.key), entry]);
  }
}
async function takeLease(worker) {
  const mine = `${LOCK}.${worker}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    await writeDurably(mine, JSON.stringify({ worker }));
    const taken = await link(mine, LOCK).then(() => true, (error) => {
      if (codeOf(error) !== "EEXIST") throw error;
      return false;
    });
    await unlink(mine);
    if (taken) {
      await fsyncPath(".");
      return true;
    }
    const owner = await readText(LOCK);
    if (owner !== void 0 && JSON.parse(owner).worker === worker) return true;
    if (owner !== void 0) await sleep(100);
  }
  return false;
}
const isReceipt = (body, key, digest) => {
  const r = body;
  return typeof r === "object" && r !== null && r.key === key && r.digest === digest && r.state === "committed" && typeof r.receipt === "string" && r.receipt.trim() !== "";
};
async function ask(url, init, judge) {
  try {
    return await judge(await fetch(url, { ...init, signal: AbortSignal.timeout(2e3) }));
  } catch (error) {
    return { state: "outcome_unknown", reason: `no answer: ${error.name}` };
  }
}
async function cancelled(task) {
  if (task.cancelFile === void 0) return false;
  return access(task.cancelFile).then(() => true, (error) => {
    if (codeOf(error) !== "ENOENT") throw error;
    return false;
  });
}
async function publish(op, log, task) {
  const last = log.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const authorized = log.history(op.key).filter((e) => e.state === "authorized").pop();
  const [digest, body] = authorized?.body !== void 0 ? [authorized.digest, authorized.body] : [sha256(op.body), op.body];
  const url = `${task.service.url}/operations/${encodeURIComponent(op.key)}`;
  const record = (state, extra = {}) => log.add({ key: op.key, state, digest, ...extra });
  if (last === void 0) await record("authorized", { body });
  else if (last.state === "authorized" && sha256(op.body) !== digest) return record("blocked", { reason: "the arguments changed after the intent was recorded" });
  let send = last === void 0 || last.state === "authorized";
  for (let sends = 0; ; ) {
    if (send) {
      const next = [...log.history(op.key)].reverse().find((e) => e.nextAttemptAtMs !== void 0)?.nextAttemptAtMs;
      const waitMs = next === void 0 ? 0 : next - Date.now();
      if (waitMs > 0) await sleep(waitMs);
      const stopForCancel = () => log.history(op.key).some((e) => e.state === "dispatched") ? void 0 : record("cancelled", { reason: "the task was cancelled" });
      if (await cancelled(task)) return stopForCancel();
      const sent = (key) => log.history(key).filter((e) => e.state === "dispatched").length;
      const budget = task.retryBudget;
      if (budget && (sent(op.key) >= budget.perOperation || task.operations.reduce((n, o) => n + (o.kind === "publish" ? sent(o.key) : 0), 0) >= budget.perTask)) return record("blocked", { reason: "the retry budget is spent" });
      if (op.input) {
        const readInput = () => ask(`${task.service.url}/resources/${encodeURIComponent(op.input?.resource ?? "")}`, {}, async (response) => {
          const found = await response.json().catch(() => null);
          if (response.status === 200 && typeof found?.value === "string") return { state: "succeeded", receipt: found.value };
          return { state: "outcome_unknown", reason: `status ${response.status}`, ...typeof found?.retryAfterMs === "number" ? { retryAfterMs: found.retryAfterMs } : {} };
        });
        let source = await readInput();
        let tries = 1;
        for (; source.state !== "succeeded" && tries < 5; tries++) {
          await sleep(source.state === "outcome_unknown" && source.retryAfterMs !== void 0 ? source.retryAfterMs : 200 * 2 ** tries);
          source = await readInput();
        }
        if (source.state !== "succeeded" || source.receipt !== op.input.version) return record("blocked", { reason: "the input it was planned from changed, or could not be read: replan or approve" });
        if (tries > 1 && await cancelled(task)) return stopForCancel();
      }
      sends++;
      await record("dispatched");
      const verdict = await ask(url, { method: "POST", body, headers: { "idempotency-key": op.key } }, async (response) => {
        if (response.status === 409) return { state: "conflict", reason: "another intent holds this key" };
        if (response.status === 400) return { state: "failed", reason: "invalid arguments (400): the plan needs fixing" };
        if (response.status === 403) return { state: "blocked", reason: "permission revoked (403): the task pauses" };
        if (response.status === 503) {
          const asked = (await response.json().catch(() => null))?.retryAfterMs;
          return { state: "outcome_unknown", reason: "unavailable (503)", retryAfterMs: typeof asked === "number" ? asked : 1e3 };
        }
        const receipt = response.status === 200 || response.status === 201 ? await response.json().catch(() => null) : null;
        return isReceipt(receipt, op.key, digest) ? { state: "succeeded", receipt: receipt.receipt } : { state: "outcome_unknown", reason: `status ${response.status}` };
      });
      if (verdict.state === "succeeded") return record("succeeded", { receipt: verdict.receipt });
      if (verdict.state !== "outcome_unknown") return record(verdict.state, { reason: verdict.reason, ...verdict.state === "blocked" ? { paused: true } : {} });
      const retryAfterMs = verdict.retryAfterMs;
      await record("outcome_unknown", { reason: verdict.reason, ...retryAfterMs !== void 0 ? { nextAttemptAtMs: Date.now() + retryAfterMs + Math.floor(Math.random() * retryAfterMs / 2) } : {} });
    }
    await record("reconciling");
    let answer = { state: "outcome_unknown", reason: "the service offers no query" };
    for (let attempt = 0; task.service.query && attempt < 6 && answer.state !== "succeeded"; attempt++) {
      if (attempt > 0) await sleep(200 * attempt);
      answer = await ask(url, {}, async (response) => {
        if (response.status === 404) return { state: "absent", reason: "the service does not know the key" };
        const found = response.status === 200 ? await response.json().catch(() => null) : null;
        return isReceipt(found, op.key, digest) ? { state: "succeeded", receipt: found.receipt } : { state: "outcome_unknown", reason: `query status ${response.status}` };
      });
    }
    if (answer.state === "succeeded") return record("succeeded", { receipt: answer.receipt });
    send = (op.retrySafe === true || task.service.idempotentReplay) && sends < 3;
    if (!send) return record("blocked", { reason: `${answer.reason}; a re-send could commit twice` });
  }
}
async function lookup(op, log, task) {
  const last = log.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const record = (state, extra = {}) => log.add({ key: op.key, state, digest: sha256(op.resource), ...extra });
  if (last === void 0) await record("authorized");
  else if (last.state !== "authorized") await record("reconciling");
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt > 0) await sleep(200 * attempt);
    await record("dispatched");
    const verdict = await ask(`${task.service.url}/resources/${encodeURIComponent(op.resource)}`, {}, async (response) => {
      if (response.status === 404) return { state: "failed", reason: "no such resource" };
      const body = response.status === 200 ? await response.json().catch(() => null) : null;
      return body?.resource === op.resource && typeof body.value === "string" ? { state: "succeeded", receipt: body.value } : { state: "outcome_unknown", reason: `status ${response.status}` };
    });
    if (verdict.state === "succeeded") return record("succeeded", { receipt: verdict.receipt });
    if (verdict.state === "failed") return record("failed", { reason: verdict.reason });
    await record("outcome_unknown", { reason: verdict.state === "outcome_unknown" ? verdict.reason : "" });
    await record("reconciling");
  }
  await record("failed", { reason: "no answer after 4 attempts" });
}
async function edit(op, log) {
  const [aside, temp] = [`${op.path}.aside-${op.key}`, `${op.path}.candidate-${op.key}`];
  const record = (state, extra) => log.add({ key: op.key, state, path: op.path, ...extra });
  const cleanUp = async () => {
    await removeIfPresent(aside);
    await removeIfPresent(temp);
  };
  const restoreAside = async () => {
    if (await link(aside, op.path).then(() => true, unless("EEXIST", "ENOENT"))) await fsyncPath(".");
    await cleanUp();
  };
  const conflict = async (theirs, reason, restore) => {
    await record("conflict", { preserved: theirs, reason });
    await (restore ? restoreAside() : cleanUp());
  };
  const place = async (base) => {
    await writeDurably(temp, base + op.append);
    const placed = await link(temp, op.path).then(() => true, (error) => {
      if (codeOf(error) !== "EEXIST") throw error;
      return false;
    });
    if (!placed) {
      await conflict(await readText(op.path) ?? "", "the user saved a new version during delivery", false);
      return false;
    }
    await fsyncPath(".");
    await record("applied", { digest: sha256(base), candidate: sha256(base + op.append) });
    await cleanUp();
    return true;
  };
  const last = log.last(op.key);
  if (last?.state === "applied") return cleanUp();
  if (last?.state === "conflict") await restoreAside();
  if (last?.state === "read") {
    const [current, moved] = [await readText(op.path), await readText(aside)];
    if (current !== void 0 && sha256(current) === last.candidate) return void (await record("applied", { digest: last.digest, candidate: last.candidate }), await cleanUp());
    if (moved !== void 0 && sha256(moved) !== last.digest) await conflict(moved, "the file changed after it was read", true);
    else if (moved !== void 0 && current === void 0 && await place(moved)) return;
    else if (moved !== void 0 && current !== void 0) await conflict(current, "the user saved a new version during delivery", false);
    else await cleanUp();
  }
  while (log.history(op.key).filter((e) => e.state === "conflict").length < 3) {
    const base = await readText(op.path) ?? "";
    await record("read", { digest: sha256(base), candidate: sha256(base + op.append) });
    await rename(op.path, aside).catch(unless("ENOENT"));
    const moved = await readText(aside);
    if (moved !== void 0 && moved !== base) await conflict(moved, "the file changed after it was read", true);
    else if (await place(base)) return;
  }
}
const calls = /* @__PURE__ */ new WeakMap();
async function oneAtATime(env, task, run) {
  const underWay = calls.get(env) ?? /* @__PURE__ */ new Map();
  calls.set(env, underWay);
  const before = underWay.get(task.id);
  const mine = before === void 0 ? run() : before.catch(() => void 0).then(run);
  underWay.set(task.id, mine);
  try {
    await mine;
  } finally {
    if (underWay.get(task.id) === mine) underWay.delete(task.id);
  }
}
async function runTask(pid, task) {
  if (!await takeLease(pid)) return;
  const log = new Log();
  await log.open();
  for (const op of task.operations) {
    if (task.operations.some((o) => log.history(o.key).some((e) => e.paused))) break;
    if (await cancelled(task)) break;
    await (op.kind === "publish" ? publish(op, log, task) : op.kind === "lookup" ? lookup(op, log, task) : edit(op, log));
  }
  if (await cancelled(task)) {
    for (const op of task.operations) {
      if (op.kind === "edit" && await readText(op.path) === void 0 && await link(`${op.path}.aside-${op.key}`, op.path).then(() => true, unless("ENOENT"))) await fsyncPath(".");
    }
  }
  await log.close();
  await unlink(LOCK);
  await fsyncPath(".");
}
const journal = {
  name: "node-journal",
  run: (env, task) => oneAtATime(env, task, () => runTask(env.pid, task)),
  inspect(disk) {
    const records = {};
    for (const e of parse(disk.readFile(LOG) ?? "")) {
      const record = records[e.key] ??= e.path !== void 0 ? { kind: "file", path: e.path, history: [], preserved: [] } : { kind: "operation", history: [] };
      record.history.push(e.state);
      if (record.kind === "file" && e.preserved !== void 0) record.preserved.push(e.preserved);
      if (record.kind === "operation" && e.state === "authorized") record.digest = e.digest;
      if (record.kind === "operation" && e.state === "succeeded") record.receipt = e.receipt;
    }
    return records;
  }
};
var stdin_default = journal;
export {
  stdin_default as default,
  journal
};
