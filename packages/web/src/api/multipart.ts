/**
 * One file as a multipart/form-data body (field `file`), built by hand: the same bytes a
 * browser's FormData sends, and it also works where fetch cannot stream a FormData's file
 * (jsdom in tests). The api client sends `data` as given, under `contentType`.
 */
export async function multipartBody(
  file: File,
  fallbackType: string,
): Promise<{ data: Uint8Array<ArrayBuffer>; contentType: string }> {
  // Not crypto.randomUUID: it needs a secure context, and consoles on plain-HTTP LAN addresses exist.
  const boundary = `----patchwell-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const name = file.name.replace(/["\r\n]/g, '_');
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: ${file.type || fallbackType}\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const content = new Uint8Array(await file.arrayBuffer());
  const data = new Uint8Array(head.length + content.length + tail.length);
  data.set(head, 0);
  data.set(content, head.length);
  data.set(tail, head.length + content.length);
  return { data, contentType: `multipart/form-data; boundary=${boundary}` };
}
