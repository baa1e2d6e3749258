/**
 * A data block as the server writes it into a console page (server/src/http/console.ts and
 * console-profile.ts): JSON in a `<script type="application/json">` with the block's id.
 */
export function sendWithPage(id: string, text: string): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = id;
  element.textContent = text;
  document.body.append(element);
}
