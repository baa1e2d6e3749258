// noVNC ships no type declarations: the part of RFB (core/rfb.js) the remote-control page uses.
declare module '@novnc/novnc' {
  export default class RFB extends EventTarget {
    constructor(
      target: HTMLElement,
      urlOrChannel: string | WebSocket,
      options?: { shared?: boolean; credentials?: { password?: string } },
    );
    /** Scale the remote screen to the element's size. */
    scaleViewport: boolean;
    /** Ask the server to resize its screen to the element's size. */
    resizeSession: boolean;
    /** Only watch, send no input. */
    viewOnly: boolean;
    /** Keyboard focus follows clicks on the canvas. */
    focusOnClick: boolean;
    background: string;
    focus(): void;
    disconnect(): void;
    sendCtrlAltDel(): void;
    /** Answers `credentialsrequired` (its `detail.types`: `username`, `password`, `target`). */
    sendCredentials(credentials: { username?: string; password?: string; target?: string }): void;
  }
}
