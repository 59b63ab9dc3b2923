// castplayer.mjs loads an asciicast in asciinema-player (npm, in headless
// Chromium through playwright-core) and prints, as one JSON object, what
// the player makes of it: its duration, its markers (the chapters: label
// and time, as the player's seek-to-marker lands on them) and the screen
// it shows at each marker and at the end. internal/cli's
// TestCastInARealPlayer runs it; scripts/install-player.sh installs what
// it needs.
//
//   node scripts/castplayer.mjs FILE.cast
//
// Environment: TANDEM_PLAYER_DIR (install-player.sh's directory, holding
// node_modules/asciinema-player and playwright-core), CHROMIUM (the
// browser; default /usr/bin/chromium).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const [castPath] = process.argv.slice(2);
const dir = process.env.TANDEM_PLAYER_DIR;
if (!castPath || !dir) {
  console.error("usage: TANDEM_PLAYER_DIR=DIR node castplayer.mjs FILE.cast");
  process.exit(2);
}
const require = createRequire(path.join(dir, "package.json"));
const { chromium } = require("playwright-core");
const bundle = path.join(dir, "node_modules/asciinema-player/dist/bundle");
const js = readFileSync(path.join(bundle, "asciinema-player.min.js"), "utf8");
const css = readFileSync(path.join(bundle, "asciinema-player.css"), "utf8");
const cast = readFileSync(castPath, "utf8");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.setContent(`<!doctype html><html><head><style>${css}</style></head><body><div id="p"></div></body></html>`);
  await page.addScriptTag({ content: js });
  const out = await page.evaluate(async (data) => {
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    const p = AsciinemaPlayer.create({ data }, document.getElementById("p"), {
      controls: true, preload: true, autoPlay: false, idleTimeLimit: 1e9,
    });
    // Deadlines only catch a player that never loads (no timing checked).
    for (let i = 0; i < 600 && p.getDuration() === undefined; i++) await sleep(50);
    const duration = p.getDuration();
    if (duration === undefined) return { error: "the player never loaded the cast" };
    const screen = () => [...document.querySelectorAll(".ap-term .ap-line")].map((l) => l.textContent.replace(/\s+$/, ""));
    const settle = async () => { await sleep(100); };
    for (let i = 0; i < 100 && document.querySelectorAll(".ap-marker-container").length === 0; i++) await sleep(50);
    const tooltips = [...document.querySelectorAll(".ap-marker-container .ap-tooltip")].map((t) => t.textContent);
    const markers = [];
    await p.seek(0);
    await settle();
    for (let i = 0; i < tooltips.length; i++) {
      await p.seek({ marker: "next" });
      await settle();
      markers.push({ time: p.getCurrentTime(), tooltip: tooltips[i], screen: screen() });
    }
    await p.seek(duration);
    await settle();
    return { duration, markers, end: screen() };
  }, cast);
  out.errors = errors;
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
}
