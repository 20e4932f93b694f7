// The "your turn" and "a chat line" sounds and whether the player wants them.

export const SOUND_KEY = "konkun.sound";

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

/** @type {AudioContext | null} */
let audio = null;

/** Where the tests count how often each sound played: `window`.
 * @returns {Window & {konkunChimes?: number, konkunBlips?: number}} */
function counters() {
  return window;
}

/** A short two-note chime for "your turn" (Web Audio; silent until the page was used). */
export function chime() {
  if (notes([660, 880])) counters().konkunChimes = (counters().konkunChimes || 0) + 1; // for the tests
}

/** One soft note for a new chat line from someone else. */
export function blip() {
  if (notes([520])) counters().konkunBlips = (counters().konkunBlips || 0) + 1; // for the tests
}

/** Play `freqs` one after the other, when the player wants sound; whether it did.
 * @param {number[]} freqs
 * @returns {boolean} */
function notes(freqs) {
  if (!soundOn()) return false;
  try {
    const context = audio ||= new AudioContext();
    const now = context.currentTime;
    freqs.forEach((freq, i) => {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.18);
      osc.connect(gain).connect(context.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.2);
    });
    return true;
  } catch {
    return false; // no sound here
  }
}
