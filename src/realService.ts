/**
 * The fake service's core behind a real node:http server on 127.0.0.1: what the benchmark's real
 * processes talk to, and what the network conformance test compares the simulated network with.
 * A reply is delivered as the simulated network delivers it: whole, or cut (the first half of the
 * body, then the connection is destroyed), a delayed one that much later; a dropped reply destroys
 * the connection unanswered (or is never answered).
 */
import { nodeHttp } from './nodeHttp.js';
import type { AddressInfo } from 'node:net';
import { credentialsOf, routeOf, type ServiceCore, type ServiceReply } from '../simulator/service/service.js';
import { contractRoute } from '../simulator/service/contractRoute.js';

export interface RealService {
  url: string;
  close(): Promise<void>;
}

/** Sends an answer (or resets the connection) `delayMs` after it was asked for: at once by default, a delayed one that much later in real time. */
export type Deliver = (answer: () => void, delayMs: number) => void;
const atOnce: Deliver = (answer, delayMs) => (delayMs > 0 ? setTimeout(answer, delayMs) : answer());

/**
 * `beforeReply` may withhold a reply (the connection is destroyed unanswered), e.g. to kill a worker
 * first. A dropped reply destroys the connection, or with `dropped: 'held'` is never answered (as the
 * simulated network drops it: the client learns nothing until it gives up). `deliver` decides when
 * an answer (a response, or a reset) goes out: confirm holds them until the simulation would deliver them.
 */
export async function serveOverHttp(core: ServiceCore, beforeReply: (method: string, reply: ServiceReply) => 'respond' | 'withhold' = () => 'respond', dropped: 'destroyed' | 'held' = 'destroyed', deliver: Deliver = atOnce): Promise<RealService> {
  const server = nodeHttp().createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const headers = new Headers(Object.entries(req.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value] as [string, string]] : [])));
      // Under a contract the request's URL is the contract's own, on this server's origin (the worker was handed it as the service's url).
      const contract = core.face?.contract;
      const route = contract ? contractRoute(contract, method, new URL(req.url ?? '/', new URL(contract.url).origin).href, headers, body) : routeOf(method, new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
      const reply = core.receive(method, route, body, credentialsOf(headers));
      if (beforeReply(method, reply) === 'withhold') {
        res.destroy();
        return;
      }
      if (reply.deliver === 'reset') {
        deliver(() => req.socket.resetAndDestroy(), 0); // a TCP RST: the client's fetch fails when it comes
        return;
      }
      if (reply.deliver === 'drop') {
        if (dropped === 'destroyed') res.destroy();
        return;
      }
      const bytes = Buffer.from(reply.body);
      const respond = (): void => {
        if (res.destroyed) return; // its client is gone (a killed worker)
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers, 'content-length': bytes.length });
        if (!reply.cut) {
          res.end(bytes);
          return;
        }
        res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
      };
      deliver(respond, reply.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
