// Translation of client-side UI strings (issue 7). The Russian text is the message id, as in gettext:
// `t("Ваш ход")`, `t("Осталось {n} с", { n: 5 })`. Every page loads `/i18n/{lang}.js` first, which sets
// `window.ADMIRAL_CATALOG` ({msgid: msgstr, singular msgid: [plural forms], "context\u0004msgid": msgstr})
// and `window.ADMIRAL_PLURAL(n)` (the index of the plural form); without them the Russian text is shown.
// `admiral i18n update` extracts `t`, `tn` and `pt` calls (babel.cfg): write the msgid as a string literal.

function catalog() {
  return (typeof window !== "undefined" && window.ADMIRAL_CATALOG) || null;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** The translation of `msgid` with `{name}` placeholders filled from `params`. */
export function t(msgid, params) {
  const c = catalog();
  const text = (c && typeof c[msgid] === "string" && c[msgid]) || msgid;
  return fill(text, params);
}

/** The plural form for `n`: `tn("{n} полуход", "{n} полуходов", n)`; `{n}` is filled in, with `params`. */
export function tn(singular, plural, n, params) {
  const forms = catalog()?.[singular];
  let text;
  if (Array.isArray(forms) && typeof window.ADMIRAL_PLURAL === "function") {
    text = forms[Math.min(forms.length - 1, window.ADMIRAL_PLURAL(Math.abs(n)))] || singular;
  } else {
    text = n === 1 ? singular : plural;
  }
  return fill(text, { n, ...params });
}

/** The translation of `msgid` in `context` (the same Russian text meaning different things). */
export function pt(context, msgid, params) {
  const c = catalog();
  const text = (c && c[`${context}\u0004${msgid}`]) || msgid;
  return fill(text, params);
}

/** The language of the page ("ru", "en"). */
export function lang() {
  return (typeof window !== "undefined" && window.ADMIRAL_LANG) || "ru";
}
