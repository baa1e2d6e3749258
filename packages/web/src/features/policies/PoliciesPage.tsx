import { POLICY_TYPE_LABELS, POLICY_TYPES } from '@patchwell/core/policies/policies.schema';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  EmptyState,
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
import { IconDots, IconSearch, IconShieldCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { formatUtc } from '../../ui/format-date';
import { SortableTh } from '../../ui/table/SortableTh';
import { TablePager } from '../../ui/table/TablePager';
import { activeFilters, apiPaging } from '../../ui/table/table-query';
import { useTableQuery, type TableQueryControls } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { useGroups } from '../groups/groups.api';
import { usePolicies, usePolicyStats } from './policies.api';
import { POLICY_TEXTS as T } from './policies.texts';
import type { PolicyWithCompliance } from '@patchwell/core/policies/policy-responses.schema';
import { POLICY_RESOURCE } from './policies.types';
import { usePolicyActions, type PolicyActions } from './usePolicyActions';
import { ActionMenu } from '../../ui/menu/ActionMenu';

const FILTERS = ['search', 'type', 'status'] as const;
type PolicyFilter = (typeof FILTERS)[number];
const any = { value: '', label: CONSOLE_TEXTS.table.any };

function PolicyFilters({ table }: { table: TableQueryControls<PolicyFilter> }) {
  const { filters } = table.query;
  const hasFilters = Object.values(filters).some(Boolean) || table.searchInput !== '';
  return (
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
        label={T.type}
        size="sm"
        value={filters.type}
        onChange={(e) => table.setFilter('type', e.currentTarget.value)}
        data={[any, ...POLICY_TYPES.map((t) => ({ value: t, label: POLICY_TYPE_LABELS[t] }))]}
      />
      <NativeSelect
        label={T.status}
        size="sm"
        value={filters.status}
        onChange={(e) => table.setFilter('status', e.currentTarget.value)}
        data={[any, { value: 'active', label: T.active }, { value: 'inactive', label: T.inactive }]}
      />
      {hasFilters && (
        <Button variant="subtle" size="sm" onClick={table.clearFilters}>
          {CONSOLE_TEXTS.table.clearFilters}
        </Button>
      )}
    </Group>
  );
}

function RowActions({
  zoneId,
  policy,
  actions,
}: {
  zoneId: number;
  policy: PolicyWithCompliance;
  actions: PolicyActions;
}) {
  return (
    <ActionMenu
      target={
        <ActionIcon variant="subtle" aria-label={T.rowActions(policy.name)}>
          <IconDots size={16} aria-hidden="true" />
        </ActionIcon>
      }
      entries={() => [
        { label: T.edit, to: withZone(pathTo(PATHS.policyDetail, { policyId: policy.id }), zoneId) },
        actions.canRun(policy) && { label: T.runNow, onClick: () => actions.runNow(policy) },
        actions.canClone(policy) && { label: T.clone, onClick: () => actions.clone(policy) },
        actions.canDelete(policy) && { label: T.delete, color: 'red', onClick: () => actions.remove(policy) },
      ]}
    />
  );
}

/** /manage/policies: the zone's policies with status, type, targets, next run and compliance. */
export function PoliciesPage() {
  usePageTitle(T.title);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const table = useTableQuery(FILTERS, 'search');
  const { query } = table;
  const filters = activeFilters(query.filters);
  const policies = usePolicies(zoneId, { ...apiPaging(query), ...filters });
  const stats = usePolicyStats(zoneId);
  const groups = useGroups(zoneId);
  const actions = usePolicyActions(zoneId, can);
  const canCreate = Object.values(POLICY_RESOURCE).some((r) => can(r, 'create'));
  const groupName = new Map((groups.data ?? []).map((g) => [g.id, g.name]));
  const statsOf = new Map((stats.data ?? []).map((s) => [s.policy_id, s]));
  const rows = policies.data?.data ?? [];
  const total = policies.data?.size ?? 0;
  const isZoneEmpty =
    policies.isSuccess && !policies.isPlaceholderData && total === 0 && Object.keys(filters).length === 0;
  const th = (field: string, label: string) => (
    <SortableTh field={field} sort={query.sort} onSort={table.toggleSort}>
      {label}
    </SortableTh>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {T.title}
        </Title>
        <Group gap="xs">
          {can('PatchPolicy', 'read') && (
            <Button component={Link} variant="default" to={withZone(PATHS.policyManualApproval, zoneId)}>
              {T.approvalsTitle}
            </Button>
          )}
          {canCreate && (
            <Button component={Link} to={withZone(PATHS.policyCreate, zoneId)}>
              {T.create}
            </Button>
          )}
        </Group>
      </Group>
      {actions.banner}
      {isZoneEmpty ? (
        <EmptyState
          py="xl"
          icon={<IconShieldCheck size={32} stroke={1.5} aria-hidden="true" />}
          withIndicatorBackground
          title={T.emptyTitle}
          description={T.emptyBody}
        />
      ) : (
        <>
          <PolicyFilters table={table} />
          {policies.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
          {policies.data && (
            <Table.ScrollContainer minWidth={900}>
              <Table highlightOnHover withTableBorder aria-label={T.tableLabel}>
                <Table.Thead>
                  <Table.Tr>
                    {th('name', T.name)}
                    {th('status', T.status)}
                    {th('policy_type_name', T.type)}
                    <Table.Th scope="col">{T.targets}</Table.Th>
                    {th('next_run_time', T.nextRun)}
                    <Table.Th scope="col">{T.compliance}</Table.Th>
                    <Table.Th scope="col" w={56}>
                      <VisuallyHidden>{T.actions}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((p) => {
                    const s = statsOf.get(p.id);
                    const c = s
                      ? { compliant: s.compliant, non_compliant: s.noncompliant, pending: s.pending }
                      : p.compliance;
                    const names = p.server_groups.map((id) => groupName.get(id) ?? `#${id}`);
                    return (
                      <Table.Tr key={p.id}>
                        <Table.Td>
                          <Anchor
                            component={Link}
                            to={withZone(pathTo(PATHS.policyDetail, { policyId: p.id }), zoneId)}
                          >
                            {p.name}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4}>
                            <Badge color={p.status === 'active' ? 'green' : 'gray'} variant="light">
                              {p.status === 'active' ? T.active : T.inactive}
                            </Badge>
                            {p.needs_configuration && (
                              <Badge color="yellow" variant="light">
                                {T.needsConfiguration}
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td>{POLICY_TYPE_LABELS[p.policy_type_name]}</Table.Td>
                        <Table.Td>
                          <Text size="sm">{names.length ? names.join(', ') : T.noGroups}</Text>
                          <Text size="xs" c="dimmed">
                            {T.devicesCount(p.server_count)}
                          </Text>
                        </Table.Td>
                        <Table.Td>{p.next_run_time ? formatUtc(p.next_run_time) : T.unscheduled}</Table.Td>
                        <Table.Td>
                          <Text size="sm">{T.complianceCounts(c.compliant, c.non_compliant, c.pending)}</Text>
                        </Table.Td>
                        <Table.Td>
                          <RowActions zoneId={zoneId} policy={p} actions={actions} />
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {policies.data && (
            <TablePager
              empty={rows.length === 0 ? T.noMatch : null}
              page={query.page}
              limit={query.limit}
              total={total}
              onPage={table.setPage}
              onLimit={table.setLimit}
            />
          )}
        </>
      )}
      {actions.dialogs}
    </Stack>
  );
}
