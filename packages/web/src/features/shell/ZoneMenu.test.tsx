import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { buildZone } from '../../test/factories';
import { renderAt } from '../../test/render';
import { ZoneMenu } from './ZoneMenu';
import { filterZones } from './zone-filter';

const zones = [
  buildZone({ id: 1, name: 'Acme East' }),
  buildZone({ id: 2, name: 'acme West' }),
  buildZone({ id: 3, name: 'Globex' }),
];

async function openMenu(props: Partial<Parameters<typeof ZoneMenu>[0]> = {}) {
  const onSelect = vi.fn();
  renderAt(
    <ZoneMenu
      label="Acme East"
      sublabel="Role: Zone Administrator"
      zones={zones}
      currentZoneId={1}
      onSelect={onSelect}
      {...props}
    />,
  );
  await userEvent.click(screen.getByRole('button', { name: /Zone: Acme East/ }));
  return { onSelect };
}

describe('zone switcher', () => {
  it('filters zone names ignoring case', () => {
    expect(filterZones(zones, 'ACME').map((z) => z.id)).toEqual([1, 2]);
    expect(filterZones(zones, '  west ').map((z) => z.id)).toEqual([2]);
    expect(filterZones(zones, '')).toHaveLength(3);
  });

  it('shows the current zone, its role and every zone', async () => {
    await openMenu();
    const list = await screen.findByRole('list', { name: 'Select a zone' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Acme East', 'acme West', 'Globex']);
    expect(screen.getAllByText('Role: Zone Administrator').length).toBeGreaterThan(0);
    expect(within(list).getByRole('button', { name: 'Acme East' })).toHaveAttribute('aria-current', 'true');
  });

  it('narrows the list as the user types, case-insensitively', async () => {
    await openMenu();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search zones' }), 'WEST');
    const list = await screen.findByRole('list', { name: 'Select a zone' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['acme West']);
  });

  it("says 'No results.' when nothing matches", async () => {
    await openMenu();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search zones' }), 'initech');
    expect(screen.getByText('No results.')).toBeInTheDocument();
  });

  it("says 'Loading Zones...' while the zones load", async () => {
    await openMenu({ zones: undefined });
    expect(screen.getByText('Loading Zones...')).toBeInTheDocument();
  });

  it('has no search box for a single zone', async () => {
    await openMenu({ zones: [zones[0]!] });
    expect(screen.queryByRole('textbox', { name: 'Search zones' })).not.toBeInTheDocument();
  });

  it('reports the chosen zone', async () => {
    const { onSelect } = await openMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Globex' }));
    expect(onSelect).toHaveBeenCalledWith(zones[2]);
  });
});
