// Tries: an http.Agent (keep-alive) handed to http.request to the real TCP canary.
// Expected: refused — HTTP agents are refused by name (README "The sandbox").
// API: Agent
import { Agent, request } from 'node:http';
import { probe, env } from '../../lib/probe.mjs';

export default probe('http-agent', () => new Promise((done) => {
  request({ host: '127.0.0.1', port: Number(env('ATTACK_PORT')), agent: new Agent({ keepAlive: true }) }, done).on('error', done).end();
}));
