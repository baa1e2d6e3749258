import { Alert, Anchor, Badge, Button, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';
import { POLICY_TEXTS } from '../policies/policies.texts';
import { WORKLET_TEXTS as T } from './worklets.texts';
import { useWorklet } from './worklets.api';

function CodeBlock({ title, help, code }: { title: string; help: string; code: string }) {
  return (
    <Stack gap={4} component="section" aria-label={title}>
      <Title order={2} fz="h4">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {help}
      </Text>
      <Code block style={{ whiteSpace: 'pre', overflowX: 'auto' }}>
        {code}
      </Code>
    </Stack>
  );
}

/** /manage/worklet-catalog/{wid}: what the worklet does, its code, and a policy made from it. */
export function WorkletDetailPage() {
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const wid = useParams().wid ?? '';
  const worklet = useWorklet(zoneId, wid);
  usePageTitle(worklet.data?.name ?? T.title);
  const back = (
    <Anchor component={Link} to={withZone(PATHS.workletCatalog, zoneId)} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden="true" />
        {T.back}
      </Group>
    </Anchor>
  );
  if (worklet.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  const w = worklet.data;
  if (!w) {
    return (
      <Stack gap="md">
        {back}
        <Alert color="red" role="alert">
          {T.notFound}
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {back}
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            {w.name}
          </Title>
          <Group gap="xs">
            <Badge variant="light">{CONSOLE_TEXTS.os[w.os_family] ?? w.os_family}</Badge>
            <Badge variant="outline" color="gray">
              {T.categories[w.category] ?? w.category}
            </Badge>
            <Badge variant="outline" color="gray">
              {POLICY_TEXTS.languages[w.language] ?? w.language}
            </Badge>
            <Badge variant="outline" color="green">
              {T.verified}
            </Badge>
            <Text size="xs" c="dimmed">
              {T.version(w.version)}
            </Text>
          </Group>
        </Stack>
        {can('CustomPolicy', 'create') && (
          <Button component={Link} to={withZone(PATHS.policyCreate, zoneId, { type: 'custom', worklet: w.id })}>
            {T.createPolicy}
          </Button>
        )}
      </Group>
      <Stack gap={4} component="section" aria-label={T.description}>
        <Title order={2} fz="h4">
          {T.description}
        </Title>
        <Text style={{ whiteSpace: 'pre-line' }}>{w.description}</Text>
      </Stack>
      {w.parameters.length > 0 && (
        <Stack gap={4} component="section" aria-label={T.parameters}>
          <Title order={2} fz="h4">
            {T.parameters}
          </Title>
          <Table withTableBorder>
            <Table.Tbody>
              {w.parameters.map((p) => (
                <Table.Tr key={p.name}>
                  <Table.Td>
                    <Code>{p.name}</Code>
                  </Table.Td>
                  <Table.Td>{p.description}</Table.Td>
                  <Table.Td>{T.parameterDefault(p.default)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
      <CodeBlock title={T.evaluationCode} help={T.evaluationHelp} code={w.evaluation_code} />
      <CodeBlock title={T.remediationCode} help={T.remediationHelp} code={w.remediation_code} />
    </Stack>
  );
}
