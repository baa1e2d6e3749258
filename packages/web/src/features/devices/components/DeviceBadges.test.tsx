import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../../test/render';
import { ComplianceBadge } from './DeviceBadges';

const REASON = 'Needs remediation: policy Servers nightly failed: 2 patches not installed.';

describe('ComplianceBadge', () => {
  it('shows why on keyboard focus, and gives screen readers the reason with the state', async () => {
    renderAt(<ComplianceBadge compliance="needs_attention" reason={REASON} />);
    await screen.findByText('Needs attention');
    await userEvent.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(REASON);
    // The tooltip's code loaded on that focus; the badge keeps the focus it had.
    const badge = screen.getByText('Needs attention').closest('[tabindex="0"]');
    expect(badge).toHaveFocus();
    expect(badge).toHaveTextContent(`Needs attention: ${REASON}`);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    await userEvent.tab({ shift: true });
    await userEvent.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(REASON);
    await userEvent.tab();
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('shows why on hover', async () => {
    renderAt(<ComplianceBadge compliance="pending" reason="Pending: policy Servers nightly waits to run." />);
    await userEvent.hover(await screen.findByText('Pending'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Pending: policy Servers nightly waits to run.');
    await userEvent.unhover(screen.getByText('Pending'));
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    await userEvent.hover(screen.getByText('Pending'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Pending: policy Servers nightly waits to run.');
  });
});
