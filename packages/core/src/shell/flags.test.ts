import { describe, expect, it } from 'vitest';
import { FEATURE_FLAGS, resolveFeatures } from './flags';

describe('resolveFeatures', () => {
  it('turns everything off by default except automated vulnerability remediation', () => {
    const on = Object.entries(resolveFeatures()).filter(([, v]) => v);
    expect(on).toEqual([['automated_vulnerability_remediation', true]]);
  });
  it('lets a zone override its account, and ignores unknown names', () => {
    const f = resolveFeatures({ remote_control: true, bogus: true }, { remote_control: false, clone_policy: true });
    expect(f.remote_control).toBe(false);
    expect(f.clone_policy).toBe(true);
    expect('bogus' in f).toBe(false);
    expect(Object.keys(f)).toEqual(Object.keys(FEATURE_FLAGS));
  });
});
