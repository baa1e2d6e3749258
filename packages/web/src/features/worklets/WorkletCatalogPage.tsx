import { OS_FAMILIES } from '@patchwell/core/agent/agent-protocol.schema';
import { WORKLET_CATEGORIES } from '@patchwell/core/worklets/worklet-catalog.schema';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  List,
  Loader,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { TablePager } from '../../ui/table/TablePager';
import { activeFilters, apiPaging } from '../../ui/table/table-query';
import { useTableQuery } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { usePolicies } from '../policies/policies.api';
import { WORKLET_TEXTS as T } from './worklets.texts';
import { useWorkletCatalog } from './worklets.api';

const FILTERS = ['search', 'os_family', 'category'] as const;
const any = { value: '', label: CONSOLE_TEXTS.table.any };
const OWN_SHOWN = 10;

/** The zone's own worklet policies, or the spec's text when it has none. */
function OwnWorklets({ zoneId }: { zoneId: number }) {
  const own = usePolicies(zoneId, { type: 'custom', page: 0, limit: OWN_SHOWN, sort: 'name:asc' });
  return (
    <Stack gap="xs" component="section" aria-label={T.ownTitle}>
      <Title order={2} fz="h4">
        {T.ownTitle}
      </Title>
      {own.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {own.data && own.data.size === 0 && <Text size="sm">{T.noWorklets}</Text>}
      {own.data && own.data.size > 0 && (
        <List size="sm">
          {own.data.data.map((p) => (
            <List.Item key={p.id}>
              <Anchor component={Link} to={withZone(pathTo(PATHS.policyDetail, { policyId: p.id }), zoneId)}>
                {p.name}
              </Anchor>
            </List.Item>
          ))}
          {own.data.size > OWN_SHOWN && (
            <List.Item>
              <Anchor component={Link} to={withZone(PATHS.policiesHome, zoneId, { type: 'custom' })}>
                {CONSOLE_TEXTS.moreCount(own.data.size - OWN_SHOWN)}
              </Anchor>
            </List.Item>
          )}
        </List>
      )}
    </Stack>
  );
}

/** /manage/worklet-catalog: the zone's worklets, then the shipped catalogue with OS, category and search filters. */
export function WorkletCatalogPage() {
  usePageTitle(T.title);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const table = useTableQuery(FILTERS, 'search');
  const { query } = table;
  const filters = activeFilters(query.filters);
  const { sort: _sort, ...paging } = apiPaging(query);
  const catalog = useWorkletCatalog(zoneId, { ...paging, ...filters });
  const rows = catalog.data?.results ?? [];
  const hasFilters = Object.values(query.filters).some(Boolean) || table.searchInput !== '';

  return (
    <Stack gap="lg">
      <Title order={1} fz="h2">
        {T.title}
      </Title>
      <Text c="dimmed">{T.intro}</Text>
      {can('CustomPolicy', 'read') && <OwnWorklets zoneId={zoneId} />}
      <Stack gap="sm" component="section" aria-label={T.catalogTitle}>
        <Title order={2} fz="h4">
          {T.catalogTitle}
        </Title>
        <Group role="search" aria-label={T.filters} align="flex-end" gap="sm">
          <TextInput
            label={T.search}
            size="sm"
            type="search"
            leftSection={<IconSearch size={14} aria-hidden="true" />}
            value={table.searchInput}
            onChange={(e) => table.setSearchInput(e.currentTarget.value)}
          />
          <NativeSelect
            label={T.os}
            size="sm"
            value={query.filters.os_family}
            onChange={(e) => table.setFilter('os_family', e.currentTarget.value)}
            data={[any, ...OS_FAMILIES.map((os) => ({ value: os, label: CONSOLE_TEXTS.os[os] ?? os }))]}
          />
          <NativeSelect
            label={T.category}
            size="sm"
            value={query.filters.category}
            onChange={(e) => table.setFilter('category', e.currentTarget.value)}
            data={[any, ...WORKLET_CATEGORIES.map((c) => ({ value: c, label: T.categories[c] ?? c }))]}
          />
          {hasFilters && (
            <Button variant="subtle" size="sm" onClick={table.clearFilters}>
              {CONSOLE_TEXTS.table.clearFilters}
            </Button>
          )}
        </Group>
        {catalog.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
        {catalog.data && rows.length === 0 && <Text size="sm">{T.noMatch}</Text>}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {rows.map((w) => (
            <Card key={w.id} withBorder padding="md" radius="md" component="article" aria-label={w.name}>
              <Stack gap="xs" h="100%">
                <Group gap="xs">
                  <Badge variant="light">{CONSOLE_TEXTS.os[w.os_family] ?? w.os_family}</Badge>
                  <Badge variant="outline" color="gray">
                    {T.categories[w.category] ?? w.category}
                  </Badge>
                </Group>
                <Text component="h3" fw={600}>
                  {w.name}
                </Text>
                <Text size="sm" c="dimmed" lineClamp={3} style={{ flex: 1 }}>
                  {w.description}
                </Text>
                <Button
                  component={Link}
                  variant="light"
                  to={withZone(pathTo(PATHS.workletDetail, { wid: w.id }), zoneId)}
                  aria-label={`${T.view}: ${w.name}`}
                >
                  {T.view}
                </Button>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
        {catalog.data && catalog.data.size > 0 && (
          <TablePager
            page={query.page}
            limit={query.limit}
            total={catalog.data.size}
            onPage={table.setPage}
            onLimit={table.setLimit}
          />
        )}
      </Stack>
    </Stack>
  );
}
