import { TEXTS } from '@patchwell/core/texts';
import { modals } from '@mantine/modals';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { Text } from '@mantine/core';
import { CONSOLE_TEXTS } from '../texts';
import { openConfirmModal } from './modals-host';

/**
 * Asks 'You are about to leave with unsaved changes. Are you sure?' before leaving a page
 * with unsaved changes: in-app navigation through a confirm modal, reloads and tab closes
 * through the browser's own prompt.
 */
export function useUnsavedChangesPrompt(isDirty: boolean): void {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let isSettled = false;
    let id: string | undefined;
    const opening = openConfirmModal({
      title: CONSOLE_TEXTS.unsaved.title,
      children: <Text size="sm">{TEXTS.generic.unsavedChanges}</Text>,
      labels: { confirm: CONSOLE_TEXTS.unsaved.leave, cancel: CONSOLE_TEXTS.unsaved.stay },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        isSettled = true;
        blocker.proceed();
      },
      onClose: () => {
        if (!isSettled) blocker.reset();
        isSettled = true;
      },
    });
    void opening.then((opened) => {
      // Settled while the host was loading (the blocker moved on): close what just opened.
      if (isSettled) modals.close(opened);
      else id = opened;
    });
    return () => {
      if (isSettled) return;
      isSettled = true;
      if (id !== undefined) modals.close(id);
    };
  }, [blocker]);

  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = TEXTS.generic.unsavedChanges;
      return TEXTS.generic.unsavedChanges;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [isDirty]);
}
