/**
 * The shared store of a confirmation, for real: the simulator's store model (simulator/store/
 * store.ts) behind a real node:http server on 127.0.0.1, which the worker processes reach over a
 * real socket (storeClient.ts), as a journal reaches its database.
 *
 * Rules:
 * - One call a request: POST / with `{ by, request }` (the caller as worker-<pid>#<incarnation>,
 *   the request as the simulated store takes it). The model applies it when it arrives, with the
 *   scenario's fault for its index, and the answer goes back when `deliver` sends it.
 * - A timeout fault (after or before apply) is never answered: the client gives up after the
 *   store's timeoutMs and rejects with StoreTimeoutError, as under simulation. Held answers are
 *   dropped when the server closes.
 * - `handle` carries each call to the model (with whatever the caller records around it) and
 *   returns what the model made of it; its answer leaves after.
 */
import type { ServerResponse } from 'node:http';
import { nodeHttp } from '../nodeHttp.js';
import type { AddressInfo } from 'node:net';
import type { StoreCall, StoreRequest } from '../../simulator/store/store.js';

export interface StoreServer {
  url: string;
  close(): Promise<void>;
}

/** `deliver` sends an answer when it should go (confirm: when the simulation would deliver it; by default at once). */
export async function serveStore(handle: (request: StoreRequest, by: string) => StoreCall, deliver: (send: () => void) => void = (send) => send()): Promise<StoreServer> {
  const held = new Set<ServerResponse>();
  const server = nodeHttp().createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: { by: string; request: StoreRequest };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const made = handle(body.request, body.by);
      if (made.fault === 'timeout-after-apply' || made.fault === 'timeout-before-apply') {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      deliver(() => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(made.answer));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
