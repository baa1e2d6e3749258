type EarlyPressWindow = Window & { pwTakeEarlyPress?: () => Element | null };

/**
 * The press held by web/public/after-paint.js on a page the server drew before the console
 * took it over (decision 0030), taken once; holding stops. Taken when hydration starts: from
 * then on React itself replays presses on the markup it has not yet hydrated.
 */
export function takeEarlyPress(view: EarlyPressWindow = window): Element | null {
  return view.pwTakeEarlyPress?.() ?? null;
}

/** Presses `target` again, once the page is hydrated; a target no longer on the page is dropped. */
export function pressAgain(target: Element | null): void {
  if (!target?.isConnected) return;
  target.closest<HTMLElement>('button, input, select, textarea, [tabindex]')?.focus({ preventScroll: true });
  target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
}
