/**
 * A confirmation worker's side of the real shared store (storeServer.ts): each call is one HTTP
 * request over a real socket to 127.0.0.1. A call the store does not answer within its timeoutMs
 * rejects with the simulator's StoreTimeoutError (it may or may not have been applied), so the
 * journal meets the same error, by the same name, as under simulation.
 */
import { nodeHttp } from '../nodeHttp.js';
import { StoreTimeoutError } from '../../simulator/node/simStore.js';
import type { StoreAnswer, StoreRequest } from '../../simulator/store/store.js';

export type StoreCaller = (request: StoreRequest) => Promise<StoreAnswer>;

export function storeClient(url: string, by: string, timeoutMs: number): StoreCaller {
  return (request) =>
    new Promise<StoreAnswer>((resolve, reject) => {
      const body = JSON.stringify({ by, request });
      const req = nodeHttp().request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(timer);
          if (res.statusCode !== 200) {
            reject(new Error(`the confirmation's store answered ${res.statusCode ?? 'nothing'} to ${request.op}`));
            return;
          }
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as StoreAnswer);
          } catch (error) {
            reject(error);
          }
        });
      });
      const timer = setTimeout(() => {
        req.destroy();
        reject(new StoreTimeoutError(request.op, timeoutMs));
      }, timeoutMs);
      req.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      req.end(body);
    });
}
