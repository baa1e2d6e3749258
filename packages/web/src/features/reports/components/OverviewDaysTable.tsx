import { Anchor, Table, Text } from '@mantine/core';
import type { OverviewDay } from '@patchwell/core/reports/reports.schema';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { REPORTS_TEXTS } from '../reports.texts';
import { Hint } from '../../../ui/Hint';

const T = REPORTS_TEXTS.overview;

export type DayLinks = {
  /** Today's compliant devices (the device list filtered). */
  compliant: string;
  /** Today's devices that are not compliant (the needs-attention report). */
  notCompliant: string;
  /** Today's devices. */
  total: string;
  /** The install commands behind a day's figure. */
  history: (day: string, outcome: 'installed' | 'failed') => string;
};

function count(value: number | null, to?: string, label?: string): ReactNode {
  if (value === null) {
    return (
      <Hint label={T.noSnapshot}>
        <Text span size="sm" c="dimmed" aria-label={T.noSnapshot}>
          —
        </Text>
      </Hint>
    );
  }
  if (!to) return value;
  return (
    <Anchor component={Link} to={to} size="sm" aria-label={label}>
      {value}
    </Anchor>
  );
}

/**
 * The overview's figures per day, newest first. Today's compliance links to the devices it
 * counts; earlier days' compliance was recorded then, and no list shows it any more. Each
 * day's installs and failures link to their install commands.
 */
export function OverviewDaysTable({
  days,
  today,
  links,
}: {
  days: readonly OverviewDay[];
  today: string;
  links: DayLinks;
}) {
  const rows = [...days].reverse();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped withTableBorder aria-label={T.complianceTitle}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{T.day}</Table.Th>
            <Table.Th scope="col">{T.compliant}</Table.Th>
            <Table.Th scope="col">{T.notCompliant}</Table.Th>
            <Table.Th scope="col">{T.total}</Table.Th>
            <Table.Th scope="col">{T.installed}</Table.Th>
            <Table.Th scope="col">{T.failures}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((d) => {
            const isToday = d.date === today;
            return (
              <Table.Tr key={d.date}>
                <Table.Th scope="row">{d.date}</Table.Th>
                <Table.Td>
                  {count(d.compliant, isToday ? links.compliant : undefined, `${T.compliant} ${d.date}`)}
                </Table.Td>
                <Table.Td>
                  {count(d.not_compliant, isToday ? links.notCompliant : undefined, `${T.notCompliant} ${d.date}`)}
                </Table.Td>
                <Table.Td>{count(d.total, isToday ? links.total : undefined, `${T.total} ${d.date}`)}</Table.Td>
                <Table.Td>
                  {count(d.patches_installed, links.history(d.date, 'installed'), `${T.installed} ${d.date}`)}
                </Table.Td>
                <Table.Td>{count(d.failures, links.history(d.date, 'failed'), `${T.failures} ${d.date}`)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
