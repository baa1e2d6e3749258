import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildClientConfig } from '../../test/factories';
import { renderAt, testQueryClient } from '../../test/render';
import { CONFIG_QUERY_KEY } from '../shell/config.api';
import { NotFoundPage } from './NotFoundPage';

describe('404 page', () => {
  it("shows '404 - Page Not Found' and the spec's body text", () => {
    renderAt(<NotFoundPage />, '/no/such/page');
    expect(screen.getByRole('heading', { level: 1, name: '404 - Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('The page you were looking for could not be found.')).toBeInTheDocument();
    expect(document.title).toBe('404 · Patchwell');
  });

  it('links back to the console, keeping the zone, and to support, documentation and the knowledge base', () => {
    const client = testQueryClient();
    client.setQueryData(CONFIG_QUERY_KEY, buildClientConfig());
    renderAt(<NotFoundPage />, '/nope?o=4', client);
    expect(screen.getByRole('link', { name: 'Return to the console' })).toHaveAttribute('href', '/dashboard?o=4');
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      'https://help.example/support',
    );
    expect(screen.getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', 'https://help.example/docs');
    expect(screen.getByRole('link', { name: 'Knowledge base' })).toHaveAttribute('href', 'https://help.example/kb');
  });
});
