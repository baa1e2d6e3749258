import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package-root';

/**
 * The one-file agent (`npm run build -w @patchwell/agent`) this server hands out to devices.
 * Read from the agent package's dist, so a rebuild is served without a restart.
 */
export const AGENT_BUNDLE_NAME = 'patchwell-agent.cjs';
export const AGENT_DOWNLOAD_PATH = `/api/agent/v1/download/${AGENT_BUNDLE_NAME}`;

export type AgentBundle = {
  content: Buffer;
  /** Hex SHA-256 of the content: the install instructions check it, and it is the ETag. */
  sha256: string;
  size: number;
  modifiedAt: Date;
};

export type AgentBundleSource = {
  file: string;
  /** The bundle, or null when it has not been built. */
  read(): Promise<AgentBundle | null>;
};

/** `packages/agent/dist/patchwell-agent.cjs`, next to the server the way `web/dist` is (config.ts). */
export function defaultAgentBundlePath(): string {
  return path.resolve(PACKAGE_ROOT, '../agent/dist', AGENT_BUNDLE_NAME);
}

/** Re-reads and re-hashes only when the file's size or modification time changed. */
export function createAgentBundleSource(file: string): AgentBundleSource {
  let cached: { key: string; bundle: AgentBundle } | undefined;
  return {
    file,
    async read() {
      const s = await stat(file).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      });
      if (!s) {
        cached = undefined;
        return null;
      }
      const key = `${s.size}:${s.mtimeMs}`;
      if (cached?.key !== key) {
        const content = await readFile(file);
        cached = {
          key,
          bundle: {
            content,
            sha256: createHash('sha256').update(content).digest('hex'),
            size: content.length,
            modifiedAt: s.mtime,
          },
        };
      }
      return cached.bundle;
    },
  };
}

/** The bundle served by this process (and whose checksum `/api/info` puts in the commands). */
export const agentBundle: AgentBundleSource = createAgentBundleSource(defaultAgentBundlePath());
