/** A worker thread of the scaling measurement: runs the standard workload and posts its rate. */
import { parentPort, workerData } from 'node:worker_threads';
import { throughput } from './workload.js';

const { seconds, seed } = workerData as { seconds: number; seed: number };
parentPort?.postMessage(await throughput({ seconds, seed }));
