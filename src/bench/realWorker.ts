/**
 * One incarnation of a real worker process for the real-process baseline: the reference journal
 * on real files and the global fetch. Args: <dir> <task.json> <pid> <incarnation>.
 */
import { readFileSync } from 'node:fs';
import type { Task } from '../../model/contract/contract.js';
import { referenceJournal } from '../journals/reference.js';
import { realEnv } from '../realEnv.js';

const [dir, taskFile, pid, incarnation] = process.argv.slice(2);
if (dir === undefined || taskFile === undefined) throw new Error('usage: realWorker <dir> <task.json> <pid> <incarnation>');
const task = JSON.parse(readFileSync(taskFile, 'utf8')) as Task;
await referenceJournal.run(realEnv({ dir, pid: Number(pid ?? 0), incarnation: Number(incarnation ?? 0) }), task);
