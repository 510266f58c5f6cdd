import { describe, expect, test } from 'vitest';
import { canaryOf, maskSecrets, SECRET_MASK } from './secret.js';

describe('the access-token canary', () => {
  test('is derived from its number, the same every time, distinct per number, and recognisable', () => {
    expect(canaryOf(7)).toBe(canaryOf(7));
    expect(canaryOf(7)).not.toBe(canaryOf(8));
    expect(canaryOf(7)).toMatch(/^durasim-canary-[0-9a-f]{24}$/);
  });

  test('is masked wherever it appears, whole or cut short by a preview, and nothing else is touched', () => {
    const token = canaryOf(3);
    expect(maskSecrets(`Bearer ${token} and again ${token}.`)).toBe(`Bearer ${SECRET_MASK} and again ${SECRET_MASK}.`);
    expect(maskSecrets(`"{\\"auth\\":\\"${token.slice(0, 21)}…"`)).toBe(`"{\\"auth\\":\\"${SECRET_MASK}…"`);
    expect(maskSecrets('durasim-canary has no digits here; nothing to hide')).toBe('durasim-canary has no digits here; nothing to hide');
    expect(maskSecrets('{"key":"post-a"}')).toBe('{"key":"post-a"}');
  });
});
