import { Group, Text } from '@mantine/core';

/** The Patchwell mark and word. Decorative: the surrounding link carries the name. */
export function Logo({ size = 28, withWord = true }: { size?: number; withWord?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap" aria-hidden="true">
      <svg width={size} height={size} viewBox="0 0 32 32" focusable="false">
        <rect width="32" height="32" rx="7" fill="#1971c2" />
        <path d="M9 23V9h7.5a4.5 4.5 0 0 1 0 9H13v5z" fill="#fff" />
        <circle cx="23" cy="22" r="3" fill="#fff" />
      </svg>
      {withWord && (
        <Text component="span" fw={700} fz="lg" c="dark.8">
          Patchwell
        </Text>
      )}
    </Group>
  );
}
