import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// The script the server adds to a page it drew, run as the browser runs it (no imports, no exports).
import afterPaint from '../../public/after-paint.js?raw';
import { pressAgain, takeEarlyPress } from './early-press';

type Recorder = Window & { pwTakeEarlyPress?: () => Element | null };

function click(target: Element): boolean {
  return target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
}

describe('a press on a drawn page before hydration', () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    root.id = 'root';
    root.innerHTML =
      '<form><button type="submit" id="send">Send <svg id="icon"></svg></button></form>' +
      '<button type="button" id="menu">Actions</button><a id="link" href="#devices">Devices</a>';
    document.body.append(root);
    new Function(afterPaint)();
  });
  afterEach(() => {
    takeEarlyPress();
    delete (window as Recorder).pwTakeEarlyPress;
    root.remove();
  });

  it('is held with its default (a form is not sent), the last one only, and taken once', () => {
    expect(click(document.getElementById('icon')!)).toBe(false);
    expect(click(document.getElementById('menu')!)).toBe(false);
    expect(takeEarlyPress()).toBe(document.getElementById('menu'));
    expect(takeEarlyPress()).toBeNull();
  });

  it('is never a link; once taken, no press is held', () => {
    expect(click(document.getElementById('link')!)).toBe(true);
    expect(takeEarlyPress()).toBeNull();
    expect(click(document.getElementById('menu')!)).toBe(true);
    expect(takeEarlyPress()).toBeNull();
  });

  it('is pressed again on the same control, focused; a control no longer on the page is dropped', () => {
    click(document.getElementById('icon')!);
    const held = takeEarlyPress();
    const button = document.getElementById('send')!;
    const seen: EventTarget[] = [];
    button.addEventListener('click', (event) => {
      seen.push(event.currentTarget!);
      event.preventDefault();
    });
    pressAgain(held);
    expect(seen).toEqual([button]);
    expect(document.activeElement).toBe(button);

    held!.remove();
    pressAgain(held);
    expect(seen).toHaveLength(1);
  });

  it('is nothing on a page the server did not draw', () => {
    expect(takeEarlyPress({} as Recorder)).toBeNull();
  });
});
