import { PACKAGE_MANIFEST } from './package-root';

/** This server's version, from packages/server/package.json. */
export const SERVER_VERSION: string = PACKAGE_MANIFEST.version;
