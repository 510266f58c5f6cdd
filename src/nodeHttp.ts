/**
 * node:http for durasim's own real servers and clients (confirm's fake service and shared store),
 * taken through require, never an ES import. An ES import of a builtin builds its namespace by
 * reading every export, and on Node 22 and 24 node:http exports WebSocket, CloseEvent and
 * MessageEvent as getters that load undici (Node's fetch): the module graph imports these modules,
 * so every process and worker thread that loads it paid for undici, though only confirm serves or
 * calls anything over http (src/bin/graph.test.ts holds the main thread to it).
 */
import { createRequire } from 'node:module';
import type * as Http from 'node:http';

export const nodeHttp = (): typeof Http => createRequire(import.meta.url)('node:http') as typeof Http;
