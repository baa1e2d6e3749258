import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../../test/render';
import { ComplianceBadge } from './DeviceBadges';

const REASON = 'Needs remediation: policy Servers nightly failed: 2 patches not installed.';

describe('ComplianceBadge', () => {
  it('shows why on keyboard focus, and gives screen readers the reason with the state', async () => {
    renderAt(<ComplianceBadge compliance="needs_attention" reason={REASON} />);
    const badge = await screen.findByText('Needs attention');
    await userEvent.tab();
    expect(badge.closest('[tabindex="0"]')).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(REASON);
    expect(badge.closest('[tabindex="0"]')).toHaveTextContent(`Needs attention: ${REASON}`);
  });

  it('shows why on hover', async () => {
    renderAt(<ComplianceBadge compliance="pending" reason="Pending: policy Servers nightly waits to run." />);
    await userEvent.hover(await screen.findByText('Pending'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Pending: policy Servers nightly waits to run.');
  });
});
