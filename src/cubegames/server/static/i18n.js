// The page's words in its reader's language. The catalogs are static/locales/<lang>.ftl in
// Project Fluent's syntax (the server words its errors from the same files); this module
// loads the chosen one before any screen draws (top-level await), so `t(id, args)` works
// anywhere, even in a module's own constants. docs/i18n.md tells how to add a language.

import { FluentBundle, FluentResource } from "./vendor/fluent/index.js";

/** The languages with a catalog, each named in its own words (for the switch). */
export const LANGUAGES = { en: "English", ja: "日本語" };
const DEFAULT = "en";
const STORE = "cubegames.lang";

/** The reader's language: the one they picked with the switch, else the first of the
 * browser's languages we have a catalog for, else English. */
export function chosenLanguage() {
  let picked = null;
  try {
    picked = localStorage.getItem(STORE);
  } catch {
    picked = null;
  }
  if (picked && picked in LANGUAGES) return picked;
  const browser = typeof navigator === "undefined" ? {} : navigator;
  for (const tag of browser.languages || [browser.language || ""]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return DEFAULT;
}

async function read(lang) {
  const url = new URL(`./locales/${lang}.ftl`, import.meta.url);
  if (typeof document === "undefined" && url.protocol === "file:") {
    // outside a page (the Node tests of the game modules): the file itself
    const fs = await import("node:fs/promises");
    return fs.readFile(url, "utf-8");
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`no catalog for ${lang}`);
  return response.text();
}

async function load(lang) {
  const made = new FluentBundle(lang, { useIsolating: false });
  const errors = made.addResource(new FluentResource(await read(lang)));
  for (const error of errors) console.warn(`catalog ${lang}: ${error.message}`);
  return made;
}

const LANG = chosenLanguage();
const bundles = LANG === DEFAULT ? [await load(DEFAULT)] : await Promise.all([load(LANG), load(DEFAULT)]);

/** The page's language (a key of LANGUAGES). */
export function lang() {
  return LANG;
}

/** Whether the catalogs have the message `id` (a plug-in game's words are not in them). */
export function has(id) {
  return bundles.some((b) => b.hasMessage(id));
}

/** The message `id` with its parameters filled in (plural forms and numbers by the
 * language's rules); the English one where the language lacks it, the id itself where both
 * do (a programming error, which the catalog tests catch). */
export function t(id, args = {}) {
  for (const bundle of bundles) {
    const message = bundle.getMessage(id);
    if (message && message.value) return bundle.formatPattern(message.value, args);
  }
  console.warn(`no message ${id}`);
  return id;
}

/** The message `id` when the catalogs have it, else `fallback` (words the server gave). */
export function tOr(id, fallback, args = {}) {
  return has(id) ? t(id, args) : fallback;
}

/** A phrase the server sends (`[key, params]`: a move in the log, the last move, a
 * roll's outcome; cubegames/core/phrase.py) in the page's words: each seat (`{seat: n}`)
 * named by `seatName`, with `<param>-you` "yes" when that is the reader ("you take"), a
 * list of seats (`{seats: [...]}`) as a list with `<param>-count`, a phrase inside
 * (`{say, text}`) worded first (its English `text` where the catalogs lack its key).
 * Null when there is no phrase or its key is not in the catalogs (the caller shows the
 * server's English). */
export function phrase(said, seatName) {
  if (!Array.isArray(said) || !has(said[0])) return null;
  const [key, params] = said;
  const you = t("seat-you");
  const args = {};
  for (const [name, value] of Object.entries(params || {})) {
    if (value && typeof value === "object" && "seat" in value) {
      args[name] = seatName(value.seat);
      args[`${name}-you`] = args[name] === you ? "yes" : "no";
    } else if (value && typeof value === "object" && Array.isArray(value.seats)) {
      const names = value.seats.map(seatName);
      args[name] = list(names);
      args[`${name}-count`] = names.length;
      args[`${name}-you`] = names.length === 1 && names[0] === you ? "yes" : "no";
    } else if (value && typeof value === "object" && Array.isArray(value.say)) {
      args[name] = phrase(value.say, seatName) ?? value.text ?? "";
    } else {
      args[name] = value;
    }
  }
  return t(key, args);
}

/** "A", "A and B", "A, B and C" in the page's language. */
export function list(items) {
  return new Intl.ListFormat(LANG, { style: "long", type: "conjunction" }).format(items);
}

/** A number written as the language writes it. */
export function number(n) {
  return new Intl.NumberFormat(LANG).format(n);
}

/** A date and time, as the language writes them. */
export function dateTime(date) {
  return date.toLocaleString(LANG, { dateStyle: "medium", timeStyle: "short" });
}

/** The headers that tell the server which language to word its answers in. */
export function languageHeader() {
  return { "Accept-Language": LANG };
}

/** The switch between the languages (a select), remembered in this browser; picking one
 * draws the page again in it. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.className = "language";
  select.setAttribute("aria-label", t("language-switch"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === LANG;
    select.append(option);
  }
  select.addEventListener("change", () => {
    try {
      localStorage.setItem(STORE, select.value);
    } catch {
      // private browsing: the choice lasts for this page only
    }
    location.reload();
  });
  return select;
}

// index.html's language, its own words (elements marked data-i18n) and the switch in its header
if (typeof document !== "undefined") {
  document.documentElement.lang = LANG;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  const header = document.querySelector("header.top");
  if (header) header.append(languageSwitch());
}
