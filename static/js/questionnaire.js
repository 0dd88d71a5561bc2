// Active time per questionnaire item: counts while an item's field has focus, the tab is
// visible and the rater was active in the last two minutes; saved with each autosave.
(() => {
  "use strict";
  const form = document.getElementById("questionnaire");
  if (!form) return;
  const IDLE_MS = 120000;
  let current = null, since = 0, lastActivity = Date.now();
  const stop = () => {
    if (current && since) {
      const field = form.querySelector(`input[name="active_ms__${current}"]`);
      const idleCut = Math.min(Date.now(), lastActivity + IDLE_MS);
      field.value = String(Number(field.value) + Math.max(0, idleCut - since));
    }
    since = 0;
  };
  const start = (item) => { stop(); current = item; since = document.hidden ? 0 : Date.now(); };
  form.addEventListener("focusin", (event) => {
    const item = event.target.closest("[data-item]");
    if (item) start(item.dataset.item);
  });
  form.addEventListener("focusout", stop);
  ["keydown", "mousemove", "input"].forEach((name) => document.addEventListener(name, () => {
    if (current && !since && !document.hidden) since = Date.now();
    lastActivity = Date.now();
  }));
  document.addEventListener("visibilitychange", () => { if (document.hidden) stop(); else if (current) since = Date.now(); });
  form.addEventListener("htmx:configRequest", stop);
})();
