// The "your turn" sound and whether the player wants it.

export const SOUND_KEY = "konkun.sound";

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== "off";
}

let audio = null;

/** A short two-note chime for "your turn" (Web Audio; silent until the page was used). */
export function chime() {
  if (!soundOn()) return;
  try {
    audio ||= new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((freq, i) => {
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
    window.konkunChimes = (window.konkunChimes || 0) + 1; // counted for the tests
  } catch { /* no sound here */ }
}
