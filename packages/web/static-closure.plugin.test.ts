import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticClosure } from './static-closure.plugin';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'patchwell-closure-'));
  const files: Record<string, string> = {
    // A package whose index re-exports everything, as Mantine's does.
    'node_modules/kit/package.json': '{"name":"kit","type":"module","main":"index.js","sideEffects":false}',
    'node_modules/kit/index.js': "export { a } from './a.js';\nexport { b } from './b.js';",
    'node_modules/kit/a.js': "export const a = () => 'kit a';",
    'node_modules/kit/b.js': "export const b = () => 'kit b';",
    'src/main.js': "export const pages = [() => import('./shell.js'), () => import('./other.js')];",
    'src/shell.js':
      "import { a } from 'kit';\nimport { helper } from './helper.js';\nexport const shell = () => a() + helper();",
    'src/helper.js': "export const helper = () => 'helper';",
    'src/other.js':
      "import { b } from 'kit';\nimport { helper } from './helper.js';\nexport const other = () => b() + helper() + import('./late.js');",
    'src/late.js': "export const late = 'late';",
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('staticClosure, which gathers the signed-in shell in one chunk (vite.config.ts)', () => {
  it('holds the roots and the own modules they import statically, not packages or what they load later', async () => {
    const shell = staticClosure(['src/shell.js']);
    const output = (await build({
      root,
      logLevel: 'silent',
      configFile: false,
      plugins: [shell.plugin],
      build: {
        write: false,
        lib: { entry: 'src/main.js', formats: ['es'] },
        rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'shell', test: (id) => shell.has(id) }] } } },
      },
    })) as Rolldown.RolldownOutput[];
    const id = (file: string) => path.join(root, file);
    expect(shell.has(id('src/shell.js'))).toBe(true);
    expect(shell.has(id('src/helper.js'))).toBe(true);
    expect(shell.has(id('src/other.js'))).toBe(false);
    expect(shell.has(id('src/late.js'))).toBe(false);
    expect(shell.has(id('node_modules/kit/index.js'))).toBe(false);
    // The group's chunk: the own modules, and (included as their dependencies) only the part of
    // the package they use.
    const chunk = output[0]!.output.find((c): c is Rolldown.OutputChunk => c.type === 'chunk' && c.name === 'shell');
    const modules = chunk!.moduleIds.map((m) => path.relative(root, m));
    expect(modules).toEqual(expect.arrayContaining(['src/shell.js', 'src/helper.js', 'node_modules/kit/a.js']));
    expect(modules).not.toContain('node_modules/kit/b.js');
    expect(modules).not.toContain('src/other.js');
  });

  it('stops the build when a root is not in it (a moved file)', async () => {
    const shell = staticClosure(['src/gone.js']);
    await expect(
      build({
        root,
        logLevel: 'silent',
        configFile: false,
        plugins: [shell.plugin],
        build: { write: false, lib: { entry: 'src/main.js', formats: ['es'] } },
      }),
    ).rejects.toThrow(/src\/gone\.js is not in the build/);
  });
});
