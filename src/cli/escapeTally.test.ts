import { describe, expect, test } from 'vitest';
import { escapeTally } from './escapeTally.js';

describe("the sandbox line's tally of escapes", () => {
  test('names each call once: the first call again, then the others', () => {
    expect(escapeTally([{ api: 'child_process.execSync' }])).toBe('');
    expect(escapeTally(Array.from({ length: 12 }, () => ({ api: 'child_process.execSync' })))).toBe(' (child_process.execSync was called 12 times)');
    expect(escapeTally([{ api: 'net.connect' }, { api: 'dns.lookup' }, { api: 'dns.lookup' }, { api: 'net.connect' }])).toBe(' (net.connect was called 2 times; 2 more escapes through dns.lookup)');
    expect(escapeTally([{ api: 'a' }, { api: 'b' }, { api: 'c' }])).toBe(' (2 more escapes through b, c)');
  });
});
