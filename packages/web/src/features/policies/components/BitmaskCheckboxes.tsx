import { Checkbox, Group, Input } from '@mantine/core';

export type BitmaskCheckboxesProps = {
  legend: string;
  /** Short labels, one per bit from bit 1 (bit 0 is unused, spec B section 9). */
  labels: readonly string[];
  /** Accessible names, when the short labels are abbreviations. */
  names?: readonly string[];
  value: number;
  onChange: (mask: number) => void;
  error?: string;
  disabled?: boolean;
};

/**
 * One checkbox per bit of a schedule mask: the i-th label is bit i+1, so Monday is 2 and
 * January is 2 (spec B section 9). Bits outside the labels are kept as they are.
 */
export function BitmaskCheckboxes({ legend, labels, names, value, onChange, error, disabled }: BitmaskCheckboxesProps) {
  return (
    <Input.Wrapper label={legend} error={error} labelElement="div">
      <Group gap="sm" mt={4} role="group" aria-label={legend}>
        {labels.map((label, i) => {
          const bit = 1 << (i + 1);
          return (
            <Checkbox
              key={label}
              label={label}
              aria-label={names?.[i] ?? label}
              checked={(value & bit) !== 0}
              disabled={disabled}
              onChange={(e) => onChange(e.currentTarget.checked ? value | bit : value & ~bit)}
            />
          );
        })}
      </Group>
    </Input.Wrapper>
  );
}
