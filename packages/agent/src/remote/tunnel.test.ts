import { describe, expect, it } from 'vitest';
import { x11vncAuth } from './tunnel.js';

describe('x11vncAuth', () => {
  it('uses the agent’s XAUTHORITY when it has one', () => {
    expect(x11vncAuth({ XAUTHORITY: '/run/user/1000/gdm/Xauthority', DISPLAY: ':0' }, 0)).toEqual({
      auth: '/run/user/1000/gdm/Xauthority',
    });
  });

  it('lets a root service without a display guess the display owner’s cookie', () => {
    expect(x11vncAuth({}, 0)).toEqual({ auth: 'guess' });
  });

  it('uses a display it was given as it is (a bare Xvfb has no cookie to guess)', () => {
    expect(x11vncAuth({ DISPLAY: ':99' }, 0)).toEqual({});
    expect(x11vncAuth({}, 1000)).toEqual({});
  });
});
