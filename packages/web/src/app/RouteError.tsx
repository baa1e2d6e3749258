import { BASE_TEXTS } from '@patchwell/core/texts.base';
import { Button, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ENTRY_TEXTS } from '../texts.entry';
import { usePageTitle } from '../ui/usePageTitle';
import { ChunkLoadError, loadBeyondLogin } from './chunks';
import { ChunkReloadModal } from './ChunkReloadModal';
import { PlainFrame } from './PlainLayout';

// Loaded on demand: it reads the client config (help links), which the first page does not need.
const NotFoundPage = lazy(() =>
  Promise.all([import('../features/notfound/NotFoundPage'), loadBeyondLogin()]).then(([m]) => ({
    default: m.NotFoundPage,
  })),
);

/** 'Something Went Wrong - Please Reload' with 'Reload Now' (spec A section 8). */
export function NavigationFailed() {
  usePageTitle(BASE_TEXTS.generic.navigationFailed);
  return (
    <Stack align="center" ta="center" gap="md" py="xl">
      <Title order={1} fz="h2">
        {BASE_TEXTS.generic.navigationFailed}
      </Title>
      <Text c="dimmed">{BASE_TEXTS.generic.unexpected}</Text>
      <Button onClick={() => window.location.reload()}>{BASE_TEXTS.generic.reloadNow}</Button>
    </Stack>
  );
}

/**
 * The router's error element: 404 responses show the 404 page, failed page downloads the
 * persistent reload modal, anything else the navigation-failure page.
 */
export function RouteError({ isInsideRoot = true }: { isInsideRoot?: boolean }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <PlainFrame width={720}>
        <Suspense fallback={null}>
          <NotFoundPage />
        </Suspense>
      </PlainFrame>
    );
  }
  if (error instanceof ChunkLoadError) {
    // The root layout shows the persistent reload modal (chunkFailure was reported); this
    // boundary only renders it itself when it replaced the root layout.
    return (
      <PlainFrame>
        <Text ta="center" py="xl">
          {ENTRY_TEXTS.chunk.body}
        </Text>
        {!isInsideRoot && <ChunkReloadModal />}
      </PlainFrame>
    );
  }
  return (
    <PlainFrame>
      <NavigationFailed />
    </PlainFrame>
  );
}
