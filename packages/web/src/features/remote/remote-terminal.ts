import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';

/**
 * A shell on the device (loaded only when a shell session starts, with xterm.js): the
 * tunnel's binary frames are the PTY's bytes both ways. The agent's `script` bridge sets the
 * terminal to 120×40 and has no resize message, so the terminal keeps that size.
 */
export const SHELL_COLS = 120;
export const SHELL_ROWS = 40;

export function attachTerminal(target: HTMLElement, socket: WebSocket) {
  const terminal = new Terminal({
    cols: SHELL_COLS,
    rows: SHELL_ROWS,
    convertEol: false,
    cursorBlink: true,
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    fontSize: 13,
  });
  terminal.open(target);
  const encoder = new TextEncoder();
  const input = terminal.onData((data) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(encoder.encode(data));
  });
  const onMessage = (event: MessageEvent) => {
    if (event.data instanceof ArrayBuffer) terminal.write(new Uint8Array(event.data));
    else if (typeof event.data === 'string') terminal.write(event.data);
  };
  socket.binaryType = 'arraybuffer';
  socket.addEventListener('message', onMessage);
  terminal.focus();
  return {
    detach() {
      socket.removeEventListener('message', onMessage);
      input.dispose();
      terminal.dispose();
    },
  };
}
