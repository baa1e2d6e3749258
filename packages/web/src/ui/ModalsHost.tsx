import { ModalsProvider } from '@mantine/modals';

/** Mantine's confirm modals (`modals.openConfirmModal`), opened through its window events. */
export function ModalsHost() {
  return <ModalsProvider />;
}
