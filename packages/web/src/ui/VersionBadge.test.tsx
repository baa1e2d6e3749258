import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../test/render';
import { VersionBadge } from './VersionBadge';

describe('version badge', () => {
  it('keeps the version’s case (badges are upper case by default)', async () => {
    renderAt(<VersionBadge version="2.34-0ubuntu3.2" />);
    const label = await screen.findByText('2.34-0ubuntu3.2');
    expect(label.closest('.mantine-Badge-root')).toHaveStyle({ textTransform: 'none' });
  });
});
