import { Anchor, Button, Group, Table, TextInput } from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { pathTo, PATHS } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import { SortableTh } from '../../../ui/table/SortableTh';
import { TablePager } from '../../../ui/table/TablePager';
import type { TableQueryControls } from '../../../ui/table/useTableQuery';
import { REPORTS_TEXTS } from '../reports.texts';

/** The table state these parts read and change (any report's filters). */
type TableControls = Pick<
  TableQueryControls<string>,
  'query' | 'searchInput' | 'setSearchInput' | 'setPage' | 'setLimit' | 'toggleSort'
>;

/** What every report's device row has: the device, its OS and its group. */
export type ReportDeviceRow = { id: number; name: string; os_name: string | null; group_name: string | null };

/** A column after the device, OS and group; `sort` names the API's sort field when it sorts. */
export type ReportDeviceColumn<Row> = { header: string; sort?: string; cell: (row: Row) => ReactNode };

type TableProps<Row extends ReportDeviceRow> = {
  label: string;
  zoneId: number;
  rows: Row[];
  columns: ReportDeviceColumn<Row>[];
  table: TableControls;
  /** Rows in all pages. */
  total: number;
  /** What the pager says when this page has no rows (none at all, or none matching). */
  empty: string | null;
};

/**
 * The device table of the device reports (prepatch, needs attention): each device links to
 * its page, columns sort on the server, and the pager reads and writes the URL.
 */
export function ReportDeviceTable<Row extends ReportDeviceRow>(props: TableProps<Row>) {
  const { table, zoneId } = props;
  const { sort } = table.query;
  return (
    <>
      <Table.ScrollContainer minWidth={900}>
        <Table striped highlightOnHover withTableBorder aria-label={props.label}>
          <Table.Thead>
            <Table.Tr>
              <SortableTh field="name" sort={sort} onSort={table.toggleSort}>
                {REPORTS_TEXTS.device}
              </SortableTh>
              <Table.Th scope="col">{REPORTS_TEXTS.os}</Table.Th>
              <Table.Th scope="col">{REPORTS_TEXTS.group}</Table.Th>
              {props.columns.map((c) =>
                c.sort ? (
                  <SortableTh key={c.header} field={c.sort} sort={sort} onSort={table.toggleSort}>
                    {c.header}
                  </SortableTh>
                ) : (
                  <Table.Th key={c.header} scope="col">
                    {c.header}
                  </Table.Th>
                ),
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.rows.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={withZone(pathTo(PATHS.deviceDetail, { deviceId: d.id }), zoneId)}
                    size="sm"
                  >
                    {d.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{d.os_name}</Table.Td>
                <Table.Td>{d.group_name}</Table.Td>
                {props.columns.map((c) => (
                  <Table.Td key={c.header}>{c.cell(d)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TablePager
        empty={props.empty}
        page={table.query.page}
        limit={table.query.limit}
        total={props.total}
        onPage={table.setPage}
        onLimit={table.setLimit}
      />
    </>
  );
}

type ToolbarProps = {
  label: string;
  table: TableControls;
  /** The CSV export of what the filters select. */
  csvHref: string;
  /** The report's own filters, between the search box and the export. */
  children?: ReactNode;
};

/** A device report's search box, its own filters and its CSV export. */
export function ReportDeviceToolbar({ label, table, csvHref, children }: ToolbarProps) {
  return (
    <Group role="search" aria-label={label} align="flex-end" gap="sm" wrap="wrap">
      <TextInput
        label={REPORTS_TEXTS.search}
        size="sm"
        type="search"
        leftSection={<IconSearch size={14} aria-hidden="true" />}
        value={table.searchInput}
        onChange={(e) => table.setSearchInput(e.currentTarget.value)}
      />
      {children}
      <Button
        component="a"
        href={csvHref}
        download
        variant="default"
        size="sm"
        ml="auto"
        leftSection={<IconDownload size={16} aria-hidden="true" />}
      >
        {REPORTS_TEXTS.exportCsv}
      </Button>
    </Group>
  );
}
