import { PROVISION_TYPE_LABELS, PROVISION_TYPES, type Connection } from '@patchwell/core/sso/connections.schema';
import { TEXTS } from '@patchwell/core/texts';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NativeSelect,
  Radio,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { serverFieldErrors } from '../../../api/field-errors';
import { useShell } from '../../../app/shell-context';
import { notify } from '../../../ui/notify';
import { useUnsavedChangesPrompt } from '../../../ui/useUnsavedChangesPrompt';
import { ZONE_ROLE_OPTIONS } from '../../users/role-options';
import { useAccountZones } from '../../zones/zones.api';
import {
  connectionBodyOf,
  connectionFormErrors,
  connectionFormOf,
  emptyConnectionForm,
  formFieldOf,
  type ConnectionFormValues,
} from '../connection-form';
import { SSO_TEXTS } from '../sso.texts';

const T = SSO_TEXTS.form;
type Errors = Record<string, string>;

export type ConnectionFormProps = {
  connection?: Connection;
  /** Sends the body; resolves with the saved connection. */
  onSubmit: (body: ReturnType<typeof connectionBodyOf>) => Promise<Connection>;
  onSaved: (connection: Connection) => void;
  submitLabel: string;
};

/** Name, provisioning, e-mail domains, the IdP (metadata or certificate and URLs) and the roles of a connection. */
export function ConnectionForm({ connection, onSubmit, onSaved, submitLabel }: ConnectionFormProps) {
  const { profile } = useShell();
  const zones = useAccountZones(profile.account_id ?? 0);
  const initial = connection ? connectionFormOf(connection) : emptyConnectionForm;
  const [values, setValues] = useState<ConnectionFormValues>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [summary, setSummary] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  // Set once saved; the page is told after the render that stops the unsaved-changes prompt.
  const [saved, setSaved] = useState<Connection | null>(null);
  const isDirty = JSON.stringify(values) !== JSON.stringify(initial);
  useUnsavedChangesPrompt(isDirty && !saved);
  useEffect(() => {
    if (saved) onSaved(saved);
  }, [saved, onSaved]);

  const set = <K extends keyof ConnectionFormValues>(key: K, value: ConnectionFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const setPair = (index: number, key: 'zone_id' | 'role_id', value: string) =>
    set(
      'zone_roles',
      values.zone_roles.map((p, i) => (i === index ? { ...p, [key]: value } : p)),
    );

  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    const problems = connectionFormErrors(values);
    setErrors(problems);
    if (Object.keys(problems).length) return setSummary(TEXTS.validation.summary);
    setSummary(null);
    setSubmitting(true);
    try {
      setSaved(await onSubmit(connectionBodyOf(values)));
    } catch (error) {
      const fields = serverFieldErrors(error);
      const mapped: Errors = {};
      for (const [path, message] of Object.entries(fields)) mapped[formFieldOf(path)] ??= message;
      setErrors(mapped);
      if (Object.keys(mapped).length) setSummary(TEXTS.validation.summary);
      else void notify.apiError(error);
    } finally {
      setSubmitting(false);
    }
  };

  const zoneOptions = [
    { value: '', label: T.chooseZone },
    ...(zones.data ?? []).map((z) => ({ value: String(z.id), label: z.name })),
  ];
  const roleOptions = [{ value: '', label: T.noDefaultRole }, ...ZONE_ROLE_OPTIONS];

  return (
    <form onSubmit={(e) => void onSave(e)} noValidate>
      <Stack gap="md" maw={760}>
        {summary && (
          <Alert color="red" role="alert">
            {summary}
          </Alert>
        )}
        <TextInput
          label={T.name}
          required
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={errors.name}
        />
        <Radio.Group
          label={T.provisionType}
          value={values.provision_type}
          onChange={(v) => set('provision_type', v as ConnectionFormValues['provision_type'])}
        >
          <Stack gap={6} mt={4}>
            {PROVISION_TYPES.map((p) => (
              <Radio key={p} value={p} label={PROVISION_TYPE_LABELS[p]} />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label={T.domains}
          description={T.domainsHelp}
          required
          autosize
          minRows={2}
          value={values.domains}
          onChange={(e) => set('domains', e.currentTarget.value)}
          error={errors.domains}
        />
        <Stack gap={6}>
          <Text fw={500} size="sm" id="idp-mode-label">
            {T.idpMode}
          </Text>
          <SegmentedControl
            aria-labelledby="idp-mode-label"
            value={values.idp_mode}
            onChange={(v) => set('idp_mode', v as ConnectionFormValues['idp_mode'])}
            data={[
              { value: 'fields', label: T.byFields },
              { value: 'metadata', label: T.byMetadata },
            ]}
            maw={420}
          />
        </Stack>
        {values.idp_mode === 'metadata' ? (
          <Textarea
            label={T.metadata}
            description={T.metadataHelp}
            autosize
            minRows={6}
            maxRows={16}
            styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
            value={values.metadata_xml}
            onChange={(e) => set('metadata_xml', e.currentTarget.value)}
            error={errors.metadata_xml}
          />
        ) : (
          <>
            <Textarea
              label={T.certificate}
              required
              autosize
              minRows={4}
              maxRows={12}
              placeholder="-----BEGIN CERTIFICATE-----"
              styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
              value={values.certificate}
              onChange={(e) => set('certificate', e.currentTarget.value)}
              error={errors.certificate ?? errors.metadata_xml}
            />
            <TextInput
              label={T.ssoUrl}
              required
              placeholder="https://idp.example.com/sso"
              value={values.sso_url}
              onChange={(e) => set('sso_url', e.currentTarget.value)}
              error={errors.sso_url}
            />
            <TextInput
              label={T.entityId}
              required
              value={values.entity_id}
              onChange={(e) => set('entity_id', e.currentTarget.value)}
              error={errors.entity_id}
            />
          </>
        )}
        {values.provision_type === 'zone_rbac' && (
          <Stack gap="xs">
            <NativeSelect
              label={T.defaultRole}
              description={T.defaultRoleHelp}
              data={roleOptions}
              value={values.default_role_id}
              onChange={(e) => set('default_role_id', e.currentTarget.value)}
              error={errors.default_role_id}
              maw={320}
            />
            <Text fw={500} size="sm" component="h3" m={0}>
              {T.zoneRoles}
            </Text>
            {values.zone_roles.map((pair, index) => (
              <Group key={index} align="flex-start" gap="sm" role="group" aria-label={T.pair(index + 1)}>
                <NativeSelect
                  label={T.zone}
                  aria-label={`${T.zone} (${T.pair(index + 1)})`}
                  data={zoneOptions}
                  w={280}
                  value={pair.zone_id}
                  onChange={(e) => setPair(index, 'zone_id', e.currentTarget.value)}
                  error={errors[`zone_roles.${index}.zone_id`]}
                />
                <NativeSelect
                  label={T.role}
                  aria-label={`${T.role} (${T.pair(index + 1)})`}
                  data={[{ value: '', label: T.role }, ...ZONE_ROLE_OPTIONS]}
                  w={240}
                  value={pair.role_id}
                  onChange={(e) => setPair(index, 'role_id', e.currentTarget.value)}
                  error={errors[`zone_roles.${index}.role_id`]}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={28}
                  onClick={() =>
                    set(
                      'zone_roles',
                      values.zone_roles.filter((_, i) => i !== index),
                    )
                  }
                  aria-label={T.removePair(index + 1)}
                >
                  <IconTrash size={16} aria-hidden="true" />
                </ActionIcon>
              </Group>
            ))}
            {errors.zone_roles && (
              <Text size="sm" c="var(--mantine-color-error)" role="alert">
                {errors.zone_roles}
              </Text>
            )}
            <Group>
              <Button
                variant="light"
                size="compact-sm"
                leftSection={<IconPlus size={14} aria-hidden="true" />}
                onClick={() => set('zone_roles', [...values.zone_roles, { zone_id: '', role_id: '' }])}
              >
                {T.addPair}
              </Button>
            </Group>
          </Stack>
        )}
        <Group>
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
