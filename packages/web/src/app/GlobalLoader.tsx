import { useSyncExternalStore } from 'react';
import { useNavigation } from 'react-router';
import { CONSOLE_TEXTS } from '../texts';
import classes from './GlobalLoader.module.css';
import { globalLoader, type LoaderStore } from './loader';

/** A thin indeterminate bar at the top of the window while requests or navigations run. */
export function GlobalLoader({ store = globalLoader }: { store?: LoaderStore }) {
  const isBusy = useSyncExternalStore(store.subscribe, store.isVisible, store.isVisible);
  const navigation = useNavigation();
  if (!isBusy && navigation.state === 'idle') return null;
  return <div className={classes.bar} role="progressbar" aria-label={CONSOLE_TEXTS.loading} aria-busy="true" />;
}
