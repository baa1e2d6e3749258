/**
 * The console's zod never compiles a parser with `new Function` (its JIT, probed at the first
 * parse of an object schema): the console's CSP (`script-src 'self'`) refuses eval, so the
 * probe only cost a violation report on every signed-in page load. zod keeps its settings in
 * this global (`zod/v4/core`'s `globalConfig`), which the entry sets without loading zod (the
 * login page does not need it). Imported first by main.tsx, before anything parses.
 */
const zod = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zod.__zod_globalConfig ??= {};
zod.__zod_globalConfig.jitless = true;

export {};
