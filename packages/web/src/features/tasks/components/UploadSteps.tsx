import { Group, List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCircle, IconLoader2 } from '@tabler/icons-react';
import { UPLOAD_TEXTS as T } from '../tasks.texts';

type StepState = 'done' | 'current' | 'todo';
const STATE_WORDS: Record<StepState, string> = { done: 'done', current: 'in progress', todo: 'not started' };

/**
 * The upload flow's steps (spec B section 4): file verified, uploading, processing begun.
 * An ordered list whose current item is marked `aria-current="step"`.
 */
export function UploadSteps({
  phase,
  isVerified,
}: {
  phase: 'choose' | 'uploading' | 'processing';
  isVerified: boolean;
}) {
  const steps: { label: string; state: StepState }[] = [
    { label: T.stepVerify, state: isVerified || phase !== 'choose' ? 'done' : 'current' },
    { label: T.stepUpload, state: phase === 'uploading' ? 'current' : phase === 'processing' ? 'done' : 'todo' },
    { label: T.stepProcess, state: phase === 'processing' ? 'done' : 'todo' },
  ];
  return (
    <List
      component="ol"
      aria-label={T.steps}
      listStyleType="none"
      spacing={4}
      styles={{ root: { display: 'flex', gap: 'var(--mantine-spacing-lg)', flexWrap: 'wrap', padding: 0 } }}
    >
      {steps.map((s) => (
        <List.Item key={s.label} aria-current={s.state === 'current' ? 'step' : undefined}>
          <Group gap={6} wrap="nowrap">
            <ThemeIcon
              size="sm"
              radius="xl"
              variant={s.state === 'done' ? 'filled' : 'light'}
              color={s.state === 'todo' ? 'gray' : s.state === 'done' ? 'green.8' : 'blue'}
              aria-hidden="true"
            >
              {s.state === 'done' ? (
                <IconCheck size={12} />
              ) : s.state === 'current' ? (
                <IconLoader2 size={12} />
              ) : (
                <IconCircle size={12} />
              )}
            </ThemeIcon>
            <Text size="sm" fw={s.state === 'current' ? 600 : 400}>
              {s.label}
              <VisuallyHidden>{`: ${STATE_WORDS[s.state]}`}</VisuallyHidden>
            </Text>
          </Group>
        </List.Item>
      ))}
    </List>
  );
}
