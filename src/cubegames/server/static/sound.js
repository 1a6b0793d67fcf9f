// The table's sounds, made here with the Web Audio API (no sound file is fetched): a
// two-note chime when it becomes your turn, a soft wooden knock when a piece or cube is
// laid, a lighter tick when a cube is taken out, a rattle of clicks when dice are rolled,
// a soft double tick when your clock runs low (once a turn).
// Off until the player turns them on; the choice is kept in this browser.

const KEY = "cubegames.sound";

/** What each sound is, for docs/playing.md and the button's hover. */
export const SOUNDS = {
  turn: "a two-note chime: it is your turn",
  laid: "a soft knock: a piece or cube was laid",
  removed: "a light tick: a cube was taken out",
  rolled: "a rattle: dice were rolled",
  low: "a soft double tick: your clock is low",
};

let context = null;

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // private browsing: the choice lasts this page only
  }
  window.cubegamesSound.on = on;
  if (on) audio();
}

/** The audio context, made (or woken) on a person's gesture as browsers ask. */
function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function tone(ctx, at, frequency, length, gain, type = "sine") {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, at);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function knock(ctx, at, frequency, length, gain) {
  const samples = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, samples, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / samples) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = frequency;
  filter.Q.value = 3;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start(at);
}

const MAKERS = {
  turn: (ctx, t) => { tone(ctx, t, 784, 0.35, 0.12); tone(ctx, t + 0.14, 1175, 0.5, 0.1); },
  laid: (ctx, t) => { knock(ctx, t, 420, 0.09, 0.9); tone(ctx, t, 180, 0.08, 0.05, "triangle"); },
  removed: (ctx, t) => { knock(ctx, t, 1500, 0.05, 0.6); },
  low: (ctx, t) => { tone(ctx, t, 1320, 0.08, 0.07, "square"); tone(ctx, t + 0.16, 990, 0.1, 0.07, "square"); },
  rolled: (ctx, t) => { for (let i = 0; i < 7; i += 1) knock(ctx, t + i * 0.045 + Math.random() * 0.02, 900 + Math.random() * 900, 0.04, 0.5); },
};

/** Play the sound `name` (one of SOUNDS) if sounds are on. Every sound asked for is
 * noted in `window.cubegamesSound.asked` (for the curious, and for tests). */
export function play(name) {
  const state = window.cubegamesSound;
  state.asked.push(name);
  if (!state.on) return;
  const ctx = audio();
  if (!ctx) return;
  state.played.push(name);
  MAKERS[name](ctx, ctx.currentTime + 0.01);
}

window.cubegamesSound = { on: soundOn(), asked: [], played: [] };
// a remembered "on" needs a gesture before a browser lets the page make a sound
document.addEventListener("pointerdown", () => { if (window.cubegamesSound.on) audio(); }, { once: true, capture: true });
