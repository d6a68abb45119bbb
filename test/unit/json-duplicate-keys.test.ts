// The duplicate-key check the install lock file is read with: JSON.parse alone keeps the last of two equal keys.
import { describe, expect, it } from 'vitest';
import { firstDuplicateKey } from '../../src/core/install/json-duplicate-keys';

describe('firstDuplicateKey', () => {
  it('finds a key given twice in one object, however deep, also when one spelling escapes it', () => {
    expect(firstDuplicateKey('{"a":1,"a":2}')).toBe('a');
    expect(firstDuplicateKey('{"e":{"x":{"k":1},"y":[{"k":1,"k":2}]}}')).toBe('k');
    expect(firstDuplicateKey('{"entries":{"a":1, "\\u0061" :2}}')).toBe('a');
  });

  it('lets the same key stand in different objects, and key-like strings stand as values', () => {
    expect(firstDuplicateKey('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toBeNull();
    expect(firstDuplicateKey('{"a":"b","c":["a","a"],"d":"x\\":\\"a"}')).toBeNull();
  });
});
