import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CONSOLE_TEXTS } from '../../../texts';
import { renderAt } from '../../../test/render';
import { VncCredentialsForm } from './VncCredentialsForm';

const T = CONSOLE_TEXTS.remote;

describe('the device screen’s own sign-in', () => {
  it('asks a Mac’s Screen Sharing for an account and sends both fields to the device', async () => {
    const send = vi.fn();
    renderAt(<VncCredentialsForm request={{ fields: ['username', 'password'], send }} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(T.username, { exact: false }), 'carol');
    await user.type(screen.getByLabelText(T.password, { exact: false, selector: 'input' }), 's3cret');
    await user.click(screen.getByRole('button', { name: T.signIn }));
    expect(send).toHaveBeenCalledWith({ username: 'carol', password: 's3cret' });
  });

  it('asks a VNC server with a password only for the password', async () => {
    const send = vi.fn();
    renderAt(<VncCredentialsForm request={{ fields: ['password'], send }} />);
    expect(screen.queryByLabelText(T.username, { exact: false })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(T.password, { exact: false, selector: 'input' }), 'vncpass');
    await user.click(screen.getByRole('button', { name: T.signIn }));
    expect(send).toHaveBeenCalledWith({ password: 'vncpass' });
  });
});
