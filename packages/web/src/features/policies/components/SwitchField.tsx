import { Switch } from '@mantine/core';
import { useController, type FieldPathByValue } from 'react-hook-form';
import type { PolicyControl, PolicyFormValues } from '../policy-form';

export type SwitchFieldProps = {
  control: PolicyControl;
  name: FieldPathByValue<PolicyFormValues, boolean>;
  label: string;
  description?: string;
};

/**
 * A switch bound to a boolean field. Mantine's Switch keeps its own checked state, so
 * `register` (which sets the DOM's `checked`) would fall out of step with a default of true.
 */
export function SwitchField({ control, name, label, description }: SwitchFieldProps) {
  const { field } = useController({ control, name });
  return (
    <Switch
      label={label}
      description={description}
      name={field.name}
      checked={field.value}
      onChange={(e) => field.onChange(e.currentTarget.checked)}
      onBlur={field.onBlur}
    />
  );
}
