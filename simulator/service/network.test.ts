import { describe, expect, test, beforeAll } from 'vitest';
import { VirtualClock } from '../world/clock.js';
import { loadMsw, Network, responseOf } from './network.js';
import { DEFAULT_SERVICE, SERVICE_URL } from '../scenario/scenario.js';
import { ServiceCore } from './service.js';

// The msw transport loads msw on first use (simulate() does it before a run): the tests here build Networks by hand.
beforeAll(loadMsw);

function pair(faults = [] as ConstructorParameters<typeof ServiceCore>[1]) {
  const make = () => new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources: { config: 'v1' } }, faults, new VirtualClock());
  const direct = make();
  const viaMsw = make();
  return { direct, viaMsw, directNet: new Network(direct, SERVICE_URL, 'direct'), mswNet: new Network(viaMsw, SERVICE_URL, 'msw') };
}

describe('Network', () => {
  test('msw and direct transports give the same replies and the same effects', async () => {
    const { direct, viaMsw, directNet, mswNet } = pair([{ kind: 'response', request: 2, fault: 'wrong-digest' }]);
    const calls: [string, RequestInit | undefined][] = [
      [`${SERVICE_URL}/operations/a`, { method: 'POST', body: 'one' }],
      [`${SERVICE_URL}/operations/a`, { method: 'POST', body: 'one' }],
      [`${SERVICE_URL}/operations/a`, undefined],
      [`${SERVICE_URL}/operations/a`, { method: 'POST', body: 'two' }],
      [`${SERVICE_URL}/resources/config`, undefined],
      [`${SERVICE_URL}/nowhere`, undefined],
    ];
    for (const [url, init] of calls) {
      const a = await directNet.send(await directNet.read(url, init));
      const b = await mswNet.send(await mswNet.read(url, init));
      expect(b).toEqual(a);
    }
    expect(viaMsw.effects).toEqual(direct.effects);
  });

  test('a Request object is read like a url and init', async () => {
    const { directNet } = pair();
    const sent = await directNet.read(new Request(`${SERVICE_URL}/operations/k`, { method: 'POST', body: 'payload' }), undefined);
    expect(sent).toMatchObject({ method: 'POST', route: { kind: 'publish', key: 'k' }, body: 'payload' });
  });

  test('only the fake service is reachable', () => {
    const { directNet } = pair();
    expect(directNet.reachable(`${SERVICE_URL}/operations/a`)).toBe(true);
    expect(directNet.reachable('http://service.durasim.evil/x')).toBe(false);
    expect(directNet.reachable('https://example.com/')).toBe(false);
  });

  test('a cut body errors mid-read; a whole one parses', async () => {
    const body = JSON.stringify({ key: 'a', receipt: 'r' });
    await expect(responseOf({ status: 201, body, cut: true, deliver: 'respond', delayMs: 0 }).json()).rejects.toThrow(/cut mid-read/);
    await expect(responseOf({ status: 201, body, cut: false, deliver: 'respond', delayMs: 0 }).json()).resolves.toEqual({ key: 'a', receipt: 'r' });
  });
});
