/**
 * The fake service's msw request handlers, for a user's own msw setup (setupServer) to run a
 * journal against the fake service over the global fetch: mswHandlers.ts with the msw this module
 * imports. (The simulator itself never imports this module: it loads msw only for a run on the msw
 * transport.)
 */
import { http, HttpResponse, type RequestHandler } from 'msw';
import { handlersWith } from './mswHandlers.js';
import type { ServiceCore, ServiceReply } from './service.js';

export function serviceHandlers(core: ServiceCore, baseUrl: string, onReply: (reply: ServiceReply) => void = () => {}): RequestHandler[] {
  return handlersWith({ http, HttpResponse }, core, baseUrl, onReply);
}
