// Translation of client-side UI strings (issue 7). The Russian text is the message id, as in gettext:
// `t("Ваш ход")`, `t("Осталось {n} с", { n: 5 })`. The page may provide a catalog for the chosen
// language as `window.ADMIRAL_CATALOG` ({msgid: msgstr}); without one the Russian text is shown.

/** The translation of `msgid` with `{name}` placeholders filled from `params`. */
export function t(msgid, params) {
  const catalog = (typeof window !== "undefined" && window.ADMIRAL_CATALOG) || null;
  const text = (catalog && catalog[msgid]) || msgid;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}
