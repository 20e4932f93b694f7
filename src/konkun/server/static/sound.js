// The "your turn" and "a chat line" sounds and whether the player wants them.

export const SOUND_KEY = "konkun.sound";

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

let audio = null;

/** A short two-note chime for "your turn" (Web Audio; silent until the page was used). */
export function chime() {
  if (notes([660, 880])) window.konkunChimes = (window.konkunChimes || 0) + 1; // for the tests
}

/** One soft note for a new chat line from someone else. */
export function blip() {
  if (notes([520])) window.konkunBlips = (window.konkunBlips || 0) + 1; // for the tests
}

/** Play `freqs` one after the other, when the player wants sound; whether it did. */
function notes(freqs) {
  if (!soundOn()) return false;
  try {
    audio ||= new AudioContext();
    const now = audio.currentTime;
    freqs.forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.18);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.2);
    });
    return true;
  } catch {
    return false; // no sound here
  }
}
