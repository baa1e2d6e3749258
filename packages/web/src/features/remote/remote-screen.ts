import RFB from '@novnc/novnc';

/**
 * The device's screen (loaded only when a control session starts, with noVNC): RFB over the
 * tunnel's WebSocket, end to end with the device's VNC server. The relay only copies bytes.
 */
export type ScreenHandlers = { onConnected: () => void; onFailed: () => void };

export function attachScreen(target: HTMLElement, socket: WebSocket, handlers: ScreenHandlers) {
  const rfb = new RFB(target, socket, { shared: true });
  rfb.scaleViewport = true;
  rfb.focusOnClick = true;
  rfb.background = 'var(--mantine-color-gray-1)';
  rfb.addEventListener('connect', () => {
    rfb.focus();
    handlers.onConnected();
  });
  rfb.addEventListener('securityfailure', handlers.onFailed);
  rfb.addEventListener('credentialsrequired', handlers.onFailed);
  return {
    detach() {
      try {
        rfb.disconnect();
      } catch {
        // Already disconnected: noVNC throws when asked twice.
      }
    },
  };
}
