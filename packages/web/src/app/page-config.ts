import { CONSOLE_CONFIG_ELEMENT_ID } from '@patchwell/core/constants';
import { ClientConfigShape } from '@patchwell/core/shell/config.parse';
import type { ClientConfig } from '@patchwell/core/shell/config.schema';
import { takeDataBlock } from './data-block';

/**
 * The client configuration the server sent with the page (server/src/http/console.ts), taken
 * once at start into the query cache, so no page asks for it before its first paint (under a
 * phone's network, that answer came before the login form counted as painted). It is the same
 * for everyone and every page of a server, so unlike the profile it holds for the whole visit.
 * Undefined when the page came without one (a page served as a file) or it is not a
 * configuration: the console then asks, as before.
 */
export function takePageConfig(): ClientConfig | undefined {
  const sent = takeDataBlock(CONSOLE_CONFIG_ELEMENT_ID);
  if (sent === undefined) return undefined;
  const parsed = ClientConfigShape.safeParse(sent);
  return parsed.success ? parsed.data : undefined;
}
