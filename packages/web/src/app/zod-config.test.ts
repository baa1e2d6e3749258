import { globalConfig } from 'zod/v4/core';
import { describe, expect, it } from 'vitest';
import './zod-config';

describe('the console’s zod', () => {
  it('parses without compiling code (the CSP refuses eval)', () => {
    expect(globalConfig.jitless).toBe(true);
  });
});
