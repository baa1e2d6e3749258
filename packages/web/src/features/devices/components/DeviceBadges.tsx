import { Badge, VisuallyHidden } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../../texts';
import { Hint } from '../../../ui/Hint';
import type { CommandStatus, Compliance, Severity } from '../devices.types';

// A status word is short: show it whole rather than cut to "ONLI…" in a narrow table column.
const WHOLE = { label: { overflow: 'visible' } } as const;

/** Online or offline, from `connected`. */
export function DeviceStatusBadge({ isOnline }: { isOnline: boolean }) {
  return (
    <Badge color={isOnline ? 'green' : 'gray'} variant="light" styles={WHOLE}>
      {isOnline ? CONSOLE_TEXTS.devices.online : CONSOLE_TEXTS.devices.offline}
    </Badge>
  );
}

const COMPLIANCE_COLORS: Record<Compliance, string> = { compliant: 'green', pending: 'yellow', needs_attention: 'red' };

/**
 * A device's compliance with why (core's deviceCompliance reason): on hover and on keyboard
 * focus in a tooltip, and read out with the state by screen readers.
 */
export function ComplianceBadge({ compliance, reason }: { compliance: Compliance; reason?: string }) {
  const badge = (
    <Badge
      color={COMPLIANCE_COLORS[compliance] ?? 'gray'}
      variant="light"
      styles={WHOLE}
      tabIndex={reason ? 0 : undefined}
    >
      {CONSOLE_TEXTS.compliance[compliance] ?? compliance}
      {reason && <VisuallyHidden>: {reason}</VisuallyHidden>}
    </Badge>
  );
  if (!reason) return badge;
  return (
    <Hint label={reason} multiline maw={360} withArrow>
      {badge}
    </Hint>
  );
}

const SEVERITY_COLORS: Record<Severity, string> = {
  critical: 'red',
  high: 'orange',
  medium: 'yellow',
  low: 'blue',
  none: 'gray',
  unknown: 'gray',
};

export function SeverityBadge({ severity }: { severity: Severity | null | undefined }) {
  const s = severity ?? 'unknown';
  return (
    <Badge color={SEVERITY_COLORS[s] ?? 'gray'} variant="light" styles={WHOLE}>
      {CONSOLE_TEXTS.severity[s] ?? s}
    </Badge>
  );
}

const COMMAND_COLORS: Record<CommandStatus, string> = {
  success: 'green',
  in_progress: 'blue',
  error: 'red',
  pending: 'gray',
  timed_out: 'orange',
  canceled: 'dark',
};

/** The job-result states of spec B section 4. */
export function CommandStatusBadge({ status }: { status: CommandStatus }) {
  return (
    <Badge color={COMMAND_COLORS[status] ?? 'gray'} variant="light" styles={WHOLE}>
      {CONSOLE_TEXTS.commandStatus[status] ?? status}
    </Badge>
  );
}
