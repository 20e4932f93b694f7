// The few browser globals the page's modules touch when they are imported (i18n.js reads
// the stored language and sets the document's; shell.js looks up its two containers, which
// index.html holds: here an empty stand-in), so that node can import them. Import this
// module first in a test file: imports run in order. Nothing here draws: the modules
// tested are the pure ones.

const stored = new Map();

globalThis.localStorage ??= /** @type {Storage} */ (/** @type {unknown} */ ({
  getItem: (/** @type {string} */ key) => stored.get(key) ?? null,
  setItem: (/** @type {string} */ key, /** @type {unknown} */ value) => {
    stored.set(key, String(value));
  },
  removeItem: (/** @type {string} */ key) => { stored.delete(key); },
  clear: () => stored.clear(),
}));

if (!("navigator" in globalThis)) {
  Object.defineProperty(globalThis, "navigator", {
    value: { languages: ["en"], language: "en" }, configurable: true,
  });
}

globalThis.document ??= /** @type {Document} */ (/** @type {unknown} */ ({
  documentElement: {},
  getElementById: (/** @type {string} */ id) => ({ id }),
  querySelector: () => null,
}));
