import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render';
import { ActionMenu } from './ActionMenu';

function renderMenu(onRemove = vi.fn(), entries = vi.fn()) {
  entries.mockImplementation(() => [
    { label: 'Open', to: '/things/7' },
    { divider: true },
    { heading: 'Files' },
    { label: 'Download', href: '/api/things/7.csv', download: true },
    { label: 'Help', href: 'https://example.test/help', newTab: true },
    false,
    { label: 'Restart', disabledReason: 'The device is offline' },
    { label: 'Remove', color: 'red' as const, onClick: onRemove },
  ]);
  renderAt(
    <ActionMenu
      target={
        <button type="button" aria-label="Thing 7 actions">
          …
        </button>
      }
      entries={entries}
    />,
  );
  return { onRemove, entries };
}

describe('ActionMenu', () => {
  it('is its button alone until used, announced as opening a menu, its entries not yet built', () => {
    const { entries } = renderMenu();
    const button = screen.getByRole('button', { name: 'Thing 7 actions' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(entries).not.toHaveBeenCalled();
  });

  it('opens on the first press, with links, downloads, a heading, a divider and a disabled line with why', async () => {
    renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Thing 7 actions' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Open',
      'Download',
      'Help',
      'Restart: The device is offline',
      'Remove',
    ]);
    expect(screen.getByRole('menuitem', { name: 'Open' })).toHaveAttribute('href', '/things/7');
    expect(screen.getByRole('menuitem', { name: 'Download' })).toHaveAttribute('download');
    expect(screen.getByRole('menuitem', { name: 'Help' })).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('menuitem', { name: 'Help' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText('Files')).toBeInTheDocument();
    // Mantine's divider is a plain element, with no role to find it by.
    expect(screen.getByRole('menu').querySelector('.mantine-Menu-divider')).not.toBeNull();
    expect(screen.getByRole('menuitem', { name: /Restart/ })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Thing 7 actions' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('runs an action and closes; opens and closes again from then on, by pointer and by keyboard', async () => {
    const { onRemove } = renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Thing 7 actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Remove' }));
    expect(onRemove).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Thing 7 actions' }));
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(screen.getByRole('button', { name: 'Thing 7 actions' })).toHaveFocus();

    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'Open' })).toBeInTheDocument();
  });

  it('gives focus back to its button when the menu its first press loaded is closed', async () => {
    renderMenu();
    screen.getByRole('button', { name: 'Thing 7 actions' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Thing 7 actions' })).toHaveFocus());
  });

  it('leaves a disabled line open and does nothing on it', async () => {
    const { onRemove } = renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Thing 7 actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Restart/ }));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(onRemove).not.toHaveBeenCalled();
  });
});
