import { OS_FAMILIES, type OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import { SCRIPT_LANGUAGES, scriptLanguageOf } from '@patchwell/core/policies/policy-configuration.schema';
import { applyWorkletParameters } from '@patchwell/core/worklets/worklet-rules';
import { WORKLET_PARAMETER_VALUE_MAX, type WorkletCatalogEntry } from '@patchwell/core/worklets/worklet-catalog.schema';
import { NativeSelect, Stack, Textarea, TextInput, Title } from '@mantine/core';
import {
  useController,
  type FieldErrors,
  type UseFormGetValues,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import { CONSOLE_TEXTS } from '../../../texts';
import { InstallerField } from './InstallerField';
import { SwitchField } from './SwitchField';
import { POLICY_TEXTS as T } from '../policies.texts';
import type { PolicyControl, PolicyFormValues } from '../policy-form';

type Props = {
  register: UseFormRegister<PolicyFormValues>;
  errors: FieldErrors<PolicyFormValues>;
};

const OS_OPTIONS = OS_FAMILIES.map((os) => ({ value: os, label: CONSOLE_TEXTS.os[os] ?? os }));
const code = { ff: 'monospace', fz: 'sm' } as const;

type WorkletFieldsProps = Props & {
  control: PolicyControl;
  setValue: UseFormSetValue<PolicyFormValues>;
  getValues: UseFormGetValues<PolicyFormValues>;
  /** The catalogue entry a new policy starts from: its parameters are offered as fields. */
  worklet?: WorkletCatalogEntry;
};

/**
 * A catalogue worklet's parameters: each edit rewrites the parameter's assignment line in
 * both scripts (core's rule quotes the value as a literal), keeping other edits to the code.
 */
function WorkletParameterFields({
  worklet,
  setValue,
  getValues,
}: Pick<WorkletFieldsProps, 'setValue' | 'getValues'> & { worklet: WorkletCatalogEntry }) {
  const onChange = (name: string, value: string) => {
    for (const field of ['configuration.evaluation_code', 'configuration.remediation_code'] as const) {
      setValue(field, applyWorkletParameters(getValues(field), worklet.language, { [name]: value }), {
        shouldDirty: true,
      });
    }
  };
  return (
    <Stack gap="xs" role="group" aria-label={T.parameters}>
      <Title order={3} fz="sm">
        {T.parameters}
      </Title>
      {worklet.parameters.map((p) => (
        <TextInput
          key={p.name}
          label={p.name}
          description={p.description}
          defaultValue={p.default}
          maxLength={WORKLET_PARAMETER_VALUE_MAX}
          ff="monospace"
          onChange={(event) => onChange(p.name, event.currentTarget.value)}
        />
      ))}
    </Stack>
  );
}

/** A worklet's OS, language, and evaluation and remediation code in monospace editors. */
export function WorkletFields({ control, register, errors, setValue, getValues, worklet }: WorkletFieldsProps) {
  const e = errors.configuration;
  const os = register('configuration.os_family');
  return (
    <Stack gap="sm">
      <Title order={2} fz="h4">
        {T.worklet}
      </Title>
      <NativeSelect
        label={T.osFamily}
        maw={320}
        data={OS_OPTIONS}
        {...os}
        onChange={(event) => {
          void os.onChange(event);
          // Each OS runs one language: PowerShell on Windows, Bash elsewhere.
          setValue('configuration.language', scriptLanguageOf(event.currentTarget.value as OsFamily), {
            shouldDirty: true,
          });
        }}
      />
      <NativeSelect
        label={T.language}
        maw={320}
        data={SCRIPT_LANGUAGES.map((l) => ({ value: l, label: T.languages[l] ?? l }))}
        {...register('configuration.language')}
        error={e?.language?.message}
      />
      {worklet && worklet.parameters.length > 0 && (
        <WorkletParameterFields worklet={worklet} setValue={setValue} getValues={getValues} />
      )}
      <Textarea
        label={T.evaluationCode}
        description={T.evaluationDescription}
        rows={10}
        resize="vertical"
        spellCheck={false}
        styles={{ input: code }}
        {...register('configuration.evaluation_code')}
        error={e?.evaluation_code?.message}
      />
      <Textarea
        label={T.remediationCode}
        description={T.remediationDescription}
        required
        rows={10}
        resize="vertical"
        spellCheck={false}
        styles={{ input: code }}
        {...register('configuration.remediation_code')}
        error={e?.remediation_code?.message}
      />
      <SwitchField control={control} name="configuration.refresh_before_remediation" label={T.refreshBefore} />
    </Stack>
  );
}

type RequiredSoftwareFieldsProps = Props & {
  zoneId: number;
  control: PolicyControl;
};

/**
 * A required-software policy's package, version and OS, and optionally an uploaded installer
 * with the install command that runs it (required once there is an installer).
 */
export function RequiredSoftwareFields({ register, errors, zoneId, control }: RequiredSoftwareFieldsProps) {
  const e = errors.configuration;
  const { field: installer } = useController({ control, name: 'configuration.installer' });
  const hasInstaller = installer.value !== null;
  return (
    <Stack gap="sm">
      <Title order={2} fz="h4">
        {T.requiredSoftware}
      </Title>
      <NativeSelect label={T.osFamily} maw={320} data={OS_OPTIONS} {...register('configuration.os_family')} />
      <TextInput
        label={T.packageName}
        required
        {...register('configuration.package_name')}
        error={e?.package_name?.message}
      />
      <TextInput
        label={T.packageVersion}
        description={T.packageVersionDescription}
        required
        maw={320}
        {...register('configuration.package_version')}
        error={e?.package_version?.message}
      />
      <InstallerField zoneId={zoneId} value={installer.value} onChange={installer.onChange} />
      <Textarea
        label={T.installCommand}
        description={hasInstaller ? T.installCommandWithInstaller : T.installCommandDescription}
        required={hasInstaller}
        rows={3}
        resize="vertical"
        spellCheck={false}
        styles={{ input: code }}
        {...register('configuration.installation_code')}
        error={e?.installation_code?.message}
      />
    </Stack>
  );
}
