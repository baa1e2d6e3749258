import RFB from '@novnc/novnc';

/**
 * The device's screen (loaded only when a control session starts, with noVNC): RFB over the
 * tunnel's WebSocket, end to end with the device's VNC server. The relay only copies bytes.
 */
export type VncCredentials = { username?: string; password?: string };

export type ScreenHandlers = {
  onConnected: () => void;
  onFailed: () => void;
  /**
   * The device's VNC server asks for its own sign-in (macOS Screen Sharing: the Mac's account;
   * a Windows VNC server: its password): which fields, and where to send them.
   */
  onCredentials: (fields: string[], send: (credentials: VncCredentials) => void) => void;
};

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
  rfb.addEventListener('credentialsrequired', (event) => {
    const fields = (event as CustomEvent<{ types?: string[] }>).detail?.types ?? ['password'];
    handlers.onCredentials(fields, (credentials) => rfb.sendCredentials(credentials));
  });
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
