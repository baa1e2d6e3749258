import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { dismissedBannerIds } from '../../app/storage';
import { renderAt } from '../../test/render';
import { StatusBanner } from '../../ui/StatusBanner';
import { AlertBanners } from './AlertBanners';
import { isLegacyBrowser } from './browser-support';
import { UnsupportedBrowserBanner } from './UnsupportedBrowserBanner';

describe('alert banners', () => {
  const banners = [
    { id: 1, message: 'Database failover in progress', messagetype: 'danger' as const },
    { id: 2, message: 'Scheduled maintenance Sunday', messagetype: 'maintenance' as const },
    { id: 3, message: 'Vendor feed delayed', messagetype: 'thirdparty' as const },
  ];

  it('styles each message type with its colour', () => {
    renderAt(<AlertBanners banners={banners} />);
    const colorOf = (text: string) =>
      screen.getByText(text).closest('[data-banner-type]')!.querySelector('.mantine-Alert-root')!.getAttribute('style');
    expect(colorOf('Database failover in progress')).toContain('red');
    expect(colorOf('Scheduled maintenance Sunday')).toContain('orange');
    expect(colorOf('Vendor feed delayed')).toContain('gray');
  });

  it('stays dismissed for the rest of the session', async () => {
    renderAt(<AlertBanners banners={banners} />);
    const [first] = screen.getAllByRole('button', { name: 'Dismiss' });
    await userEvent.click(first!);
    expect(screen.queryByText('Database failover in progress')).not.toBeInTheDocument();
    expect(dismissedBannerIds()).toEqual([1]);
  });
});

describe('unsupported browser banner', () => {
  it('detects browsers without structuredClone or CSS :has()', () => {
    expect(isLegacyBrowser({ structuredClone: () => null, CSS: { supports: () => true } })).toBe(false);
    expect(isLegacyBrowser({ CSS: { supports: () => true } })).toBe(true);
    expect(isLegacyBrowser({ structuredClone: () => null, CSS: { supports: () => false } })).toBe(true);
    expect(isLegacyBrowser({ structuredClone: () => null })).toBe(true);
  });

  it('shows on a legacy browser until dismissed for the session', async () => {
    renderAt(<UnsupportedBrowserBanner isLegacy={() => true} />);
    expect(screen.getByText(/Your browser is not supported/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/Your browser is not supported/)).not.toBeInTheDocument();
    expect(window.sessionStorage.getItem('patchwell.unsupportedBrowserDismissed')).toBe('1');
  });

  it('stays hidden on a current browser', () => {
    renderAt(<UnsupportedBrowserBanner isLegacy={() => false} />);
    expect(screen.queryByText(/Your browser is not supported/)).not.toBeInTheDocument();
  });
});

describe('status banner', () => {
  it('collapses a long message behind Show more / Show less', async () => {
    renderAt(<StatusBanner color="blue" message={'Long notice. '.repeat(30)} />);
    const toggle = screen.getByRole('button', { name: 'Show more' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('has no toggle for a short message', () => {
    renderAt(<StatusBanner color="blue" message="Short." />);
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });
});
