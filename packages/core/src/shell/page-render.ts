/**
 * What the server hands the console's page renderer (packages/web/src/ssr/render-page.tsx,
 * built for Node into packages/web/dist-ssr) and what it gets back: a signed-in first page's
 * markup, drawn by the server with the same components and data the console then hydrates
 * (decision 0030). Not an HTTP payload: a call between the server and the console's build.
 */
export type ConsolePageRenderInput = {
  /** The page's address as asked: path under /console and query. */
  url: string;
  /** `GET /api/users/self?o=`'s answer to the user who asked for the page. */
  profile: unknown;
  /** `GET /api/banners`'s answer, or null when it could not be read. */
  banners: unknown;
  /** The client configuration every page carries (`GET /api/shared/js/config`'s answer). */
  config: unknown;
  /** Reads the API as the user who asked for the page (GET only). */
  fetch: (url: string) => Promise<Response>;
};

/**
 * The data a page was drawn from: the answers of its own queries (the profile, banners and
 * configuration come in their own blocks), each with its query key and when it was read (ms).
 */
export type ConsolePageState = { queries: { key: unknown[]; data: unknown; updatedAt: number }[] };

/** A rendered page: the markup for the console's root element, and its {@link ConsolePageState} as JSON for its data block. */
export type ConsolePageRender = { html: string; state: string };

/** Null when the address is not a page the server renders, or not one it can draw as it stands. */
export type ConsolePageRenderer = (input: ConsolePageRenderInput) => Promise<ConsolePageRender | null>;
