import { describe, expect, test } from 'vitest';
import { globalClasses, hiddenIntrinsics } from './hiddenIntrinsics.js';
import { instanceArguments, MADE_WITH, NEVER_MADE } from './instanceArguments.js';

/** Whether `made` makes an instance without arguments. */
function madeBare(made: new (...args: unknown[]) => unknown): boolean {
  try {
    Reflect.construct(made, []);
    return true;
  } catch {
    return false;
  }
}

describe("the baseline makes an instance of every global class it can (what only an instance reaches: the queuing strategies' size)", () => {
  const classes = globalClasses();

  test(`every global class of Node ${process.version} is made without arguments, or named with its arguments or with why it is never made`, () => {
    expect(classes.length).toBeGreaterThan(50);
    const unnamed = classes.filter(([name, made]) => !madeBare(made) && !Object.hasOwn(MADE_WITH, name) && !Object.hasOwn(NEVER_MADE, name)).map(([name]) => name);
    expect(unnamed).toEqual([]);
  });

  test('each class named with arguments is made with them on this Node (an entry a Node line does not need is still true there)', () => {
    const present = classes.filter(([name]) => Object.hasOwn(MADE_WITH, name));
    expect(present.map(([name]) => name)).toContain('ByteLengthQueuingStrategy');
    for (const [name, made] of present) expect(() => Reflect.construct(made, instanceArguments(name) as unknown[]), name).not.toThrow();
  });

  test('a class never made is given no arguments, and says why', () => {
    for (const [name, why] of Object.entries(NEVER_MADE)) {
      expect(instanceArguments(name)).toBeUndefined();
      expect(why.length).toBeGreaterThan(8);
    }
    expect(instanceArguments('Map')).toEqual([]);
  });

  test("the function a queuing strategy's size getter hands every instance is among the baseline's hidden intrinsics", () => {
    const hidden = new Map(hiddenIntrinsics());
    expect(hidden.get('%ByteLengthQueuingStrategy.prototype.size (what its getter gives)%')).toBe(new ByteLengthQueuingStrategy({ highWaterMark: 1 }).size);
    expect(hidden.get('%CountQueuingStrategy.prototype.size (what its getter gives)%')).toBe(new CountQueuingStrategy({ highWaterMark: 1 }).size);
  });
});
