import type { ScannerFormat } from '@patchwell/core/remediation/scanners.schema';
import { Code, Stack, Table, Text, Title } from '@mantine/core';
import { UPLOAD_TEXTS as T } from '../tasks.texts';

/** A provider's expected CSV (FIELD-NOTES 3.4 "Expected Format"): its columns and a short example. */
export function ExpectedFormat({ format }: { format: ScannerFormat }) {
  return (
    <Stack gap="xs" component="section" aria-label={T.expectedFormat}>
      <Title order={3} fz="sm">
        {T.expectedFormat}
      </Title>
      <Text size="xs" c="dimmed">
        {T.exportName(format.export_name)}
      </Text>
      <Text size="xs">{T.severityScale(format.severity_scale)}</Text>
      <Table.ScrollContainer minWidth={520}>
        <Table withTableBorder fz="xs" aria-label={`${T.expectedFormat}: ${format.label}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{T.column}</Table.Th>
              <Table.Th scope="col">{T.required}</Table.Th>
              <Table.Th scope="col">{T.reads}</Table.Th>
              <Table.Th scope="col">{T.alsoAccepted}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {format.headers.map((h) => (
              <Table.Tr key={h.name}>
                <Table.Td>
                  <Code>{h.name}</Code>
                </Table.Td>
                <Table.Td>{h.required ? T.required : T.optional}</Table.Td>
                <Table.Td>{h.description}</Table.Td>
                <Table.Td>{h.aliases.length ? h.aliases.join(', ') : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" fw={600}>
        {T.example}
      </Text>
      <Code block style={{ whiteSpace: 'pre', overflowX: 'auto', maxHeight: '10rem' }} tabIndex={0}>
        {format.example}
      </Code>
    </Stack>
  );
}
