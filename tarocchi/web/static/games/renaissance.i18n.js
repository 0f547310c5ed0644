// The Renaissance game's own catalogue keys (merged into i18n.js's catalogue when its module
// loads). Its older "ren." keys still live in i18n.js.

export default {
  en: {
    "ren.center.you.discard": "You take the three extra cards and discard three face down.",
    "ren.played.fool": "Fool",
  },
  it: {
    "ren.center.you.discard": "Prendi le tre carte in più e ne scarti tre coperte.",
    // The Sicilian pack says Fuggitivo (issue 57); this game's pack says Matto.
    "ren.played.fool": "Matto",
  },
};
