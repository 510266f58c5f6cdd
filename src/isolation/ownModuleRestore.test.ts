/**
 * What a restore puts back of durasim's own modules handed to a journal (trackOwnModule): everything
 * reachable from their exports, a Set's and a Map's members too. Here, not beside sharedBaseline.ts:
 * taking the thread's baseline makes every later restore in the process put its objects back, so the
 * test keeps a module graph of its own (the isolated project). The pool's crash tests
 * (src/pool/crashForgets.test.ts) show the same through a journal that is killed.
 */
import { expect, test } from 'vitest';
import { takeBaseline, trackOwnModule } from '../../simulator/sandbox/sharedBaseline.js';
import { restoreShared } from '../../simulator/sandbox/sharedObjects.js';

class Base {
  greet(): string {
    return 'hello';
  }
}

test('everything reachable from the exports is put back, members of a Set and a Map included', () => {
  const member = { seen: 0 };
  const exports = {
    list: [{ key: 'a' }],
    nested: { deeper: { deepest: { value: 1 } } },
    fn: Object.assign(() => 'fn', { options: { retries: 3 } }),
    Base,
    cache: new Map<string, unknown>([['a', 1], ['b', member]]),
    set: new Set<unknown>([1, 2, member]),
  };
  // The baseline reads every accessor of process once (lazily loaded properties define themselves); in a test fork one of them is
  // the deprecated process._channel, whose warning would be printed in the suite's output.
  process.noDeprecation = true;
  takeBaseline();
  trackOwnModule('durasim-test', Object.assign(Object.create(null) as object, exports));

  const list = exports.list as { key: string; carried?: string }[];
  (list[0] as { key: string; carried?: string }).carried = 'left';
  list.push({ key: 'b' });
  exports.nested.deeper.deepest.value = 2;
  exports.fn.options.retries = 0;
  (Base.prototype.greet as unknown as { sent: string[] }).sent = ['post-a'];
  Base.prototype.greet = () => 'replaced';
  exports.cache.set('a', 2);
  exports.cache.delete('b');
  exports.cache.set('c', 3);
  exports.set.delete(1);
  exports.set.add(9);
  member.seen = 5;

  const { restored, unrestorable } = restoreShared();
  expect(unrestorable).toEqual([]);
  expect(list).toEqual([{ key: 'a' }]);
  expect(exports.nested.deeper.deepest.value).toBe(1);
  expect(exports.fn.options.retries).toBe(3);
  expect(new Base().greet()).toBe('hello');
  expect('sent' in Base.prototype.greet).toBe(false);
  expect([...exports.cache]).toEqual([['a', 1], ['b', member]]);
  expect([...exports.set]).toEqual([1, 2, member]);
  expect(member.seen).toBe(0);
  expect(restored).toEqual(
    expect.arrayContaining([
      'durasim-test.list.0.carried (added)',
      'durasim-test.list.1 (added)',
      'durasim-test.nested.deeper.deepest.value (changed)',
      'durasim-test.fn.options.retries (changed)',
      'durasim-test.cache (members changed)',
      'durasim-test.set (members changed)',
    ]),
  );

  // Nothing changed since: nothing of the module is put back (vitest's own globals, changed by the assertions above, are).
  expect(restoreShared().restored.filter((name) => name.startsWith('durasim-test'))).toEqual([]);
});
