import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import type { OnboardingStepKey } from '@patchwell/core/onboarding/onboarding.schema';
import { TEXTS } from '@patchwell/core/texts';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { useRefreshProfile } from '../../app/useRefreshProfile';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';
import { useOnboarding } from './onboarding.api';
import { ONBOARDING_TEXTS as T } from './onboarding.texts';

/** Where each step's action leads. */
const STEP_PATHS: Record<OnboardingStepKey, string> = {
  set_up: PATHS.setupAndConfiguration,
  add_device: PATHS.devices,
  scan: PATHS.devices,
  review: PATHS.reportsPrepatch,
  patch: PATHS.devices,
};

/**
 * /onboarding: the quick start guide's five steps (spec A section 4), each checked off from
 * the server's answer. When every step is done the account is marked as having completed
 * the guide, the profile is reloaded (the dashboard's redirect reads it) and the dashboard opens.
 */
export function OnboardingPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const onboarding = useOnboarding(zoneId);
  const refreshProfile = useRefreshProfile(zoneId);
  const navigate = useNavigate();
  const left = useRef(false);
  const completed = onboarding.data?.completed === true;
  const allDone = onboarding.data?.steps.every((s) => s.done) === true;

  useEffect(() => {
    if (!completed || !allDone || left.current) return;
    left.current = true;
    void refreshProfile().then(() => navigate(withZone(PATHS.dashboard, zoneId)));
  }, [completed, allDone, refreshProfile, navigate, zoneId]);

  return (
    <Stack gap="lg" maw={760}>
      <Stack gap={4}>
        <Title order={1} fz="h2">
          {T.title}
        </Title>
        <Text c="dimmed">{T.intro}</Text>
      </Stack>
      {onboarding.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {onboarding.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {completed && (
        <Alert color="green" role="status">
          <Group justify="space-between">
            <Text>{T.completed}</Text>
            <Anchor component={Link} to={withZone(PATHS.dashboard, zoneId)}>
              {T.toDashboard}
            </Anchor>
          </Group>
        </Alert>
      )}
      <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
        {onboarding.data?.steps.map((s) => {
          const text = T.steps[s.key];
          return (
            <Card
              withBorder
              padding="md"
              radius="md"
              component="li"
              key={s.key}
              aria-label={`${s.step}. ${text.title}`}
            >
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Group wrap="nowrap" align="flex-start">
                  {s.done ? (
                    <IconCircleCheck size={24} color="var(--mantine-color-green-7)" aria-hidden="true" />
                  ) : (
                    <IconCircleDashed size={24} aria-hidden="true" />
                  )}
                  <Stack gap={2}>
                    <Text fw={700}>
                      {s.step}. {text.title}
                    </Text>
                    <Text size="sm">{text.body}</Text>
                  </Stack>
                </Group>
                <Stack gap={6} align="flex-end">
                  <Badge color={s.done ? 'green' : 'gray'} variant="light">
                    {s.done ? T.done : T.todo}
                  </Badge>
                  {!s.done && (
                    <Button size="xs" variant="light" component={Link} to={withZone(STEP_PATHS[s.key], zoneId)}>
                      {text.action}
                    </Button>
                  )}
                </Stack>
              </Group>
            </Card>
          );
        })}
      </Stack>
    </Stack>
  );
}
