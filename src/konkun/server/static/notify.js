// Browser notifications of a table ("your turn", "a rematch is offered") while its tab is
// hidden: off until the person turns them on (the browser asks its permission once then).

import { toast } from "./dom.js";
import { t } from "./i18n.js";

export const NOTIFY_KEY = "konkun.notify";

/** Whether the browser can show notifications at all. */
export function canNotify() {
  return "Notification" in window;
}

/** Whether the person turned notifications on and the browser allows them. */
export function notifyOn() {
  return canNotify() && localStorage.getItem(NOTIFY_KEY) === "on"
    && Notification.permission === "granted";
}

/** Turn notifications off, or on (asking the browser's permission when it has not been
 * given); `done` is called after, to redraw the switch.
 * @param {() => void} [done] */
export async function toggleNotify(done) {
  if (notifyOn()) {
    localStorage.setItem(NOTIFY_KEY, "off");
  } else if (canNotify()) {
    const answer = Notification.permission === "granted" ? "granted"
      : await Notification.requestPermission();
    if (answer === "granted") localStorage.setItem(NOTIFY_KEY, "on");
    else toast(t("tools.notifyDenied"), "error");
  }
  done?.();
}

/** Show a notification `title` (one per `tag`: a newer one replaces it) when the tab is
 * hidden and notifications are on; a click on it brings the tab back.
 * @param {string} title
 * @param {string} tag */
export function notifyHidden(title, tag) {
  if (!document.hidden || !notifyOn()) return;
  try {
    const note = new Notification(title, { tag, body: "konkun" });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch { /* a browser that only notifies from a service worker: nothing to show */ }
}
