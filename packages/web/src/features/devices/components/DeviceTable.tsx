import { Anchor, Checkbox, Table, VisuallyHidden } from '@mantine/core';
import { Fragment, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Can } from '../../../app/access';
import { PATHS, pathTo } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import { CONSOLE_TEXTS } from '../../../texts';
import { SortableTh } from '../../../ui/table/SortableTh';
import type { TableSort } from '../../../ui/table/table-query';
import { useVirtualRows } from '../../../ui/table/useVirtualRows';
import { VirtualSpacerRow } from '../../../ui/table/VirtualSpacerRow';
import { DEVICE_SORT_FIELDS } from '../device-filters';
import { deviceLabel } from '../device-label';
import type { Device } from '../devices.types';
import type { DeviceActions } from '../useDeviceActions';
import { DeviceRowActions } from './DeviceRowActions';
import { DeviceStateCells } from './DeviceStateCells';

const T = CONSOLE_TEXTS.devices;
const COLUMN_COUNT = 10;
/** A row with a checkbox, badges and one line of text, before measuring (px). */
const ROW_HEIGHT = 45;

export type DeviceTableProps = {
  zoneId: number;
  rows: readonly Device[];
  sort: TableSort;
  onSort: (field: string) => void;
  selectedIds: readonly number[];
  onSelect: (ids: number[]) => void;
  can: Can;
  actions: DeviceActions;
  /** Changes with the page, sort or filters: the table scrolls back to its top. */
  resetKey: string;
};

/**
 * The device table: a semantic table whose body renders only the rows in view (pages of up
 * to 500, spec B section 9), in a scroll box under a sticky header. `aria-rowcount` and
 * `aria-rowindex` tell assistive technology the page's full size.
 */
export function DeviceTable({
  zoneId,
  rows,
  sort,
  onSort,
  selectedIds,
  onSelect,
  can,
  actions,
  resetKey,
}: DeviceTableProps) {
  const { scrollRef, scrollToTop, measureRef, bodyProps, ...virtual } = useVirtualRows({
    count: rows.length,
    estimateRowHeight: ROW_HEIGHT,
    getRowKey: (index) => rows[index]?.id ?? index,
  });
  // A new page, sort or filter starts at the top. Not on mount: the box starts there, and
  // scrolling makes the browser lay the page out at once, inside the task that drew the rows.
  const shownKey = useRef(resetKey);
  useEffect(() => {
    if (shownKey.current === resetKey) return;
    shownKey.current = resetKey;
    scrollToTop();
  }, [resetKey, scrollToTop]);

  const allOnPage = rows.length > 0 && rows.every((d) => selectedIds.includes(d.id));
  const someOnPage = rows.some((d) => selectedIds.includes(d.id));
  const toggle = (id: number) =>
    onSelect(selectedIds.includes(id) ? selectedIds.filter((x) => x !== id) : [...selectedIds, id]);
  const th = (key: keyof typeof DEVICE_SORT_FIELDS, label: string) => (
    <SortableTh field={DEVICE_SORT_FIELDS[key]} sort={sort} onSort={onSort}>
      {label}
    </SortableTh>
  );

  return (
    <Table.ScrollContainer
      ref={scrollRef}
      type="native"
      minWidth={1000}
      style={{ maxHeight: 'max(24rem, calc(100dvh - 22rem))' }}
    >
      <Table stickyHeader highlightOnHover withTableBorder aria-label={T.tableLabel} aria-rowcount={rows.length + 1}>
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            <Table.Th scope="col" w={40}>
              <Checkbox
                aria-label={CONSOLE_TEXTS.table.selectAll}
                checked={allOnPage}
                indeterminate={someOnPage && !allOnPage}
                onChange={() => onSelect(allOnPage ? [] : rows.map((d) => d.id))}
              />
            </Table.Th>
            {th('name', T.name)}
            {th('os', T.osFamily)}
            {th('group', T.group)}
            <Table.Th scope="col">{T.status}</Table.Th>
            {th('lastSeen', T.lastSeen)}
            {th('pendingPatches', T.pendingPatches)}
            {th('compliance', T.compliance)}
            <Table.Th scope="col">{T.tags}</Table.Th>
            <Table.Th scope="col" w={56}>
              <VisuallyHidden>{T.actions}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody {...bodyProps}>
          {virtual.rows.map((item) => {
            const d = rows[item.index]!;
            const label = deviceLabel(d);
            const isSelected = selectedIds.includes(d.id);
            return (
              <Fragment key={d.id}>
                <VirtualSpacerRow height={item.spaceBefore} colSpan={COLUMN_COUNT} />
                <Table.Tr
                  ref={measureRef}
                  data-index={item.index}
                  aria-rowindex={item.index + 2}
                  bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}
                >
                  <Table.Td>
                    <Checkbox
                      aria-label={CONSOLE_TEXTS.table.selectRow(label)}
                      checked={isSelected}
                      onChange={() => toggle(d.id)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={withZone(pathTo(PATHS.deviceDetail, { deviceId: d.id }), zoneId)}>
                      {label}
                    </Anchor>
                  </Table.Td>
                  <DeviceStateCells device={d} />
                  <Table.Td>{d.tags.join(', ')}</Table.Td>
                  <Table.Td>
                    <DeviceRowActions zoneId={zoneId} device={d} can={can} actions={actions} />
                  </Table.Td>
                </Table.Tr>
              </Fragment>
            );
          })}
          <VirtualSpacerRow height={virtual.paddingBottom} colSpan={COLUMN_COUNT} />
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
