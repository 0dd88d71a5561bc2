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

// The autosave's status and the confirmation of a submission. Every text shown comes from the page's "questionnaire-strings" data
// block (in the interface language), never from this file. An autosave refused with 409 (the
// questionnaire was submitted meanwhile, in another tab say) shows why: htmx swaps no 4xx
// response unless told to.
(() => {
  "use strict";
  const form = document.getElementById("questionnaire");
  if (!form) return;
  const strings = JSON.parse(document.getElementById("questionnaire-strings").textContent);
  const answers = document.getElementById("answers");
  const status = (text) => { const element = document.getElementById("autosave"); if (element) element.textContent = text; };
  let unsaved = false;
  answers.addEventListener("change", () => { unsaved = true; });
  answers.addEventListener("htmx:beforeRequest", () => status(strings.saving));
  answers.addEventListener("htmx:afterRequest", (event) => { if (event.detail.successful) unsaved = false; });
  answers.addEventListener("htmx:sendError", () => status(strings.not_saved));
  // submission is final: asked once, for a form the browser lets through (an incomplete one
  // goes to the server unasked, which says what is missing)
  form.addEventListener("submit", (event) => {
    if (form.checkValidity() && !window.confirm(strings.confirm_submit)) { event.preventDefault(); return; }
    unsaved = false;
  });
  window.addEventListener("beforeunload", (event) => {
    if (!unsaved) return;
    event.preventDefault();
    event.returnValue = strings.leave_unsaved;
  });
  form.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.xhr.status === 409) { event.detail.shouldSwap = true; event.detail.isError = false; unsaved = false; }
  });
})();

// Keyboard entry: the whole questionnaire can be filled without the mouse.
//   Enter in a score           -> its reason (pairwise: A, B, D choose A, B or draw)
//   Ctrl/Cmd+Enter in a reason -> the next item's score (after the last one: Submit)
//   Alt+ArrowDown / Alt+ArrowUp       -> next / previous item
//   Alt+ArrowRight / Alt+ArrowLeft    -> next / previous stage tab of the trajectory
//   Ctrl/Cmd+S                 -> save the draft now
(() => {
  "use strict";
  const form = document.getElementById("questionnaire");
  if (!form) return;
  const items = () => Array.from(form.querySelectorAll("[data-item]"));
  const scoreOf = (item) => item.querySelector('input[type="number"], input[type="radio"]:checked') || item.querySelector("input");
  const currentItem = () => document.activeElement && document.activeElement.closest("[data-item]");
  const focusItem = (offset) => {
    const all = items();
    const index = all.indexOf(currentItem());
    const next = all[index < 0 ? 0 : index + offset];
    if (next) { const score = scoreOf(next); score.focus(); if (score.select) score.select(); return true; }
    return false;
  };
  // the stage tabs of the trajectories (not the A / B tabs of a pair on a phone: pair_tabs.js)
  let lastTablist = document.querySelector('.trajectory [role="tablist"]');
  const switchTab = (offset) => {
    if (!lastTablist) return;
    const tabs = Array.from(lastTablist.querySelectorAll('[role="tab"]'));
    const selected = tabs.findIndex((tab) => tab.getAttribute("aria-selected") === "true");
    tabs[Math.min(tabs.length - 1, Math.max(0, selected + offset))].click();
  };
  document.querySelectorAll('.trajectory [role="tablist"]').forEach((tablist) => tablist.addEventListener("click", (event) => {
    const tab = event.target.closest('[role="tab"]');
    if (!tab) return;
    lastTablist = tablist;
    tablist.querySelectorAll('[role="tab"]').forEach((other) => other.setAttribute("aria-selected", String(other === tab)));
  }));
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const command = event.ctrlKey || event.metaKey;
    if (event.altKey && ["ArrowDown", "ArrowUp"].includes(event.key)) {
      event.preventDefault();
      focusItem(event.key === "ArrowDown" ? 1 : -1);
    } else if (event.altKey && ["ArrowRight", "ArrowLeft"].includes(event.key)) {
      event.preventDefault();
      switchTab(event.key === "ArrowRight" ? 1 : -1);
    } else if (command && event.key.toLowerCase() === "s") {
      event.preventDefault();
      window.htmx.trigger(document.getElementById("answers"), "change");
    } else if (!command && !event.altKey && target.matches('[data-item] input[type="radio"]') && ["a", "b", "d"].includes(event.key.toLowerCase())) {
      event.preventDefault();
      const value = { a: "A", b: "B", d: "draw" }[event.key.toLowerCase()];
      const choice = target.closest("[data-item]").querySelector(`input[type="radio"][value="${value}"]`);
      choice.checked = true;
      choice.focus();
      choice.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (event.key === "Enter" && target.matches('[data-item] input[type="number"], [data-item] input[type="radio"]')) {
      event.preventDefault();
      target.closest("[data-item]").querySelector("textarea").focus();
    } else if (event.key === "Enter" && command && target.matches("[data-item] textarea")) {
      event.preventDefault();
      if (!focusItem(1)) form.querySelector('button[type="submit"]').focus();
    }
  });
})();
