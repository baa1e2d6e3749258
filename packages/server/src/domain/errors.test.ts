import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '@patchwell/core/shell/error-catalogue';
import { AppError, appError } from './errors';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('the error catalogue', () => {
  it('is the only source of an AppError: another code or an inline status and text does not compile', () => {
    // Checked by the compiler (npm run typecheck): each line below must fail to compile.
    const wrong = [
      // @ts-expect-error a code that is not in the catalogue
      () => new AppError('groups.made_up'),
      // @ts-expect-error status and text come from the catalogue, not the caller
      () => new AppError('groups.name_taken', 409, 'A group with this name already exists in this zone.'),
      // @ts-expect-error a worded text needs its wording
      () => new AppError('auth.locked'),
    ];
    expect(wrong).toHaveLength(3);
    const locked = appError('auth.locked', { wording: { minutes: 1 } });
    expect(locked.status).toBe(403);
    expect(locked.message).toContain('Try again in 1 minute,');
  });

  it('raises nothing in server code but catalogue entries', () => {
    const offences: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\b(?:new AppError|appError)\(\s*([^,)]*)/g)) {
        const arg = m[1]!.trim();
        const literal = /^'([^']*)'$/.exec(arg)?.[1];
        // A variable is typed by the compiler; a literal or template is checked here too.
        if (literal !== undefined ? !(literal in ERROR_CATALOGUE) : /[`"]/.test(arg)) {
          offences.push(`${path.relative(SRC, file)}: ${m[0]}`);
        }
      }
      for (const m of text.matchAll(/\bnew AppError\([^)]*?,\s*\d{3}\b/g)) {
        offences.push(`${path.relative(SRC, file)}: inline status in ${m[0]}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it('gives every entry an error status and a text', () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      const entry = ERROR_CATALOGUE[code];
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
      const text = typeof entry.message === 'string' ? entry.message : 'worded';
      expect(text.length, code).toBeGreaterThan(0);
    }
  });

  it('answers with the shared code of an entry that has one', () => {
    const err = new AppError('api_keys.from_key');
    expect({ code: err.code, status: err.status, entry: err.entry }).toEqual({
      code: 'authz.forbidden',
      status: 403,
      entry: 'api_keys.from_key',
    });
  });
});
