/**
 * The JSON of a data block the server sent with the page (`<script type="application/json">`,
 * server/src/http/console.ts and console-profile.ts), taken once: the element is removed,
 * whatever it holds. Undefined when the page came without it or it is not JSON.
 */
export function takeDataBlock(id: string): unknown {
  const element = document.getElementById(id);
  if (!element) return undefined;
  element.remove();
  try {
    return JSON.parse(element.textContent ?? '') as unknown;
  } catch {
    return undefined;
  }
}
