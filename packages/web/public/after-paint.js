// The scripts of a page the server drew (decision 0030, server/src/http/console-render.ts),
// asked for once the page is on screen: the server keeps them in the inert <template
// id="pw-scripts">, so that on a slow link the page's styles and markup are not shared with a
// quarter of a megabyte of scripts before its first paint. A frame, then a task: after the paint.
const scripts = document.getElementById('pw-scripts');
if (scripts instanceof HTMLTemplateElement) {
  requestAnimationFrame(() =>
    setTimeout(() => {
      // Made anew (a copied <script> would not run) and added at once: one change of the head.
      const copies = document.createDocumentFragment();
      for (const tag of scripts.content.children) {
        const copy = document.createElement(tag.localName);
        for (const { name, value } of tag.attributes) copy.setAttribute(name, value);
        // In the order the build wrote them, as the parser would have run them.
        if (copy instanceof HTMLScriptElement) copy.async = false;
        copies.append(copy);
      }
      scripts.replaceWith(copies);
    }, 0),
  );
}

// A press on the drawn page before the console has taken it over would do nothing (React
// listens only from hydration on). It is held here and pressed again once the page is hydrated
// (web/src/app/early-press.ts): the last one only, as a user who pressed twice waiting wanted one
// answer. Links are left to the browser: they are real links. Its own default is held too: a
// form's button would otherwise send the form the browser's way.
const root = document.getElementById('root');
if (root) {
  let pressed = null;
  const hold = (event) => {
    if (!(event.target instanceof Element) || event.target.closest('a[href]')) return;
    event.preventDefault();
    pressed = event.target;
  };
  root.addEventListener('click', hold, true);
  window.pwTakeEarlyPress = () => {
    root.removeEventListener('click', hold, true);
    const taken = pressed;
    pressed = null;
    return taken;
  };
}
