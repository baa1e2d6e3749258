import { PATCH_SEVERITIES } from '@patchwell/core/agent/agent-protocol.schema';
import {
  ActionIcon,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconSearch } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { CveList } from '../../ui/CveList';
import { TablePager } from '../../ui/table/TablePager';
import { activeFilters, apiPaging } from '../../ui/table/table-query';
import { useTableQuery } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { SeverityBadge } from '../devices/components/DeviceBadges';
import { useSoftware } from './software.api';
import { SoftwareDevices } from './SoftwareDevices';

const T = CONSOLE_TEXTS.software;
const SOFTWARE_FILTERS = ['search', 'os_family', 'severity', 'needs_update'] as const;
const any = { value: '', label: CONSOLE_TEXTS.table.any };

/** /software: the zone's software aggregated by package; a row expands to the devices having it. */
export function SoftwarePage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const table = useTableQuery(SOFTWARE_FILTERS, 'search');
  const { query } = table;
  const software = useSoftware(zoneId, { ...apiPaging(query), ...activeFilters(query.filters) });
  const [expanded, setExpanded] = useState<string | null>(null);
  const rows = software.data?.data ?? [];

  return (
    <Stack gap="md">
      <Title order={1} fz="h2">
        {T.title}
      </Title>
      <Group role="search" aria-label={T.search} align="flex-end" gap="sm">
        <TextInput
          label={T.search}
          type="search"
          size="sm"
          leftSection={<IconSearch size={14} aria-hidden="true" />}
          value={table.searchInput}
          onChange={(e) => table.setSearchInput(e.currentTarget.value)}
        />
        <NativeSelect
          label={T.osFamily}
          size="sm"
          value={query.filters.os_family}
          onChange={(e) => table.setFilter('os_family', e.currentTarget.value)}
          data={[
            any,
            ...(['windows', 'mac', 'linux'] as const).map((os) => ({ value: os, label: CONSOLE_TEXTS.os[os] ?? os })),
          ]}
        />
        <NativeSelect
          label={T.severity}
          size="sm"
          value={query.filters.severity}
          onChange={(e) => table.setFilter('severity', e.currentTarget.value)}
          data={[any, ...PATCH_SEVERITIES.map((s) => ({ value: s, label: CONSOLE_TEXTS.severity[s] ?? s }))]}
        />
        <NativeSelect
          label={T.needsUpdate}
          size="sm"
          value={query.filters.needs_update}
          onChange={(e) => table.setFilter('needs_update', e.currentTarget.value)}
          data={[
            any,
            { value: 'true', label: CONSOLE_TEXTS.devices.yes },
            { value: 'false', label: CONSOLE_TEXTS.devices.no },
          ]}
        />
      </Group>
      {software.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {software.data && rows.length === 0 && <Text c="dimmed">{T.empty}</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={800}>
          <Table withTableBorder aria-label={T.tableLabel}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w={40}>
                  <VisuallyHidden>{T.devicesColumn}</VisuallyHidden>
                </Table.Th>
                <Table.Th scope="col">{T.name}</Table.Th>
                <Table.Th scope="col">{T.osFamily}</Table.Th>
                <Table.Th scope="col">{T.installed}</Table.Th>
                <Table.Th scope="col">{T.versions}</Table.Th>
                <Table.Th scope="col">{T.needsUpdateCount}</Table.Th>
                <Table.Th scope="col">{T.severity}</Table.Th>
                <Table.Th scope="col">{T.cves}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => {
                const key = `${p.os_family}:${p.name}`;
                const isOpen = expanded === key;
                return (
                  <Fragment key={key}>
                    <Table.Tr>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          color="gray.8"
                          aria-expanded={isOpen}
                          aria-label={isOpen ? T.hideDevices(p.name) : T.showDevices(p.name)}
                          onClick={() => setExpanded(isOpen ? null : key)}
                        >
                          {isOpen ? (
                            <IconChevronDown size={16} aria-hidden="true" />
                          ) : (
                            <IconChevronRight size={16} aria-hidden="true" />
                          )}
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td>{p.name}</Table.Td>
                      <Table.Td>{CONSOLE_TEXTS.os[p.os_family] ?? p.os_family}</Table.Td>
                      <Table.Td>{p.installed_count}</Table.Td>
                      <Table.Td>{p.versions.join(', ') || '—'}</Table.Td>
                      <Table.Td>{p.needs_update_count}</Table.Td>
                      <Table.Td>{p.severity ? <SeverityBadge severity={p.severity} /> : '—'}</Table.Td>
                      <Table.Td>
                        <CveList cves={p.cves} />
                      </Table.Td>
                    </Table.Tr>
                    {isOpen && (
                      <Table.Tr>
                        <Table.Td />
                        <Table.Td colSpan={7}>
                          <SoftwareDevices zoneId={zoneId} name={p.name} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {software.data && (
        <TablePager
          page={query.page}
          limit={query.limit}
          total={software.data.size}
          onPage={table.setPage}
          onLimit={table.setLimit}
        />
      )}
    </Stack>
  );
}
