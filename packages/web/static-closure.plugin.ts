import path from 'node:path';
import { normalizePath, type Plugin } from 'vite';

/**
 * The console's own modules (outside node_modules) that the given modules import statically,
 * themselves included: read from the module graph once the build has parsed every module, so
 * that a code-splitting group's `test` (called later, when chunks are made) can ask `has`.
 * Packages are not followed: a package's index re-exports all of it (Mantine's would bring
 * every component), and which of its parts are used is known only after tree-shaking; a group
 * brings the packages its own modules use (`includeDependenciesRecursively`). Paths of `roots`
 * are relative to the Vite project's root (packages/web).
 */
export function staticClosure(roots: string[]): { plugin: Plugin; has: (id: string) => boolean } {
  const members = new Set<string>();
  const isOwn = (id: string) => !/[\\/]node_modules[\\/]/.test(id) && !id.startsWith('\0');
  let projectRoot = process.cwd();
  const plugin: Plugin = {
    name: 'patchwell:static-closure',
    apply: 'build',
    configResolved(config) {
      projectRoot = config.root;
    },
    buildEnd(error) {
      if (error) return;
      members.clear();
      const ids = new Set(this.getModuleIds());
      const stack = roots.map((root) => {
        const id = normalizePath(path.resolve(projectRoot, root));
        if (!ids.has(id)) throw new Error(`static-closure: ${root} is not in the build`);
        return id;
      });
      while (stack.length > 0) {
        const id = stack.pop()!;
        if (members.has(id)) continue;
        members.add(id);
        stack.push(...(this.getModuleInfo(id)?.importedIds ?? []).filter(isOwn));
      }
    },
  };
  return { plugin, has: (id) => members.has(id) };
}
