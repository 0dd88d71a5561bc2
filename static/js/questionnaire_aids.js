// Aids while scoring, on the questionnaire page (after questionnaire.js; no build):
// - the "n / 16" progress: items answered as submission requires (a score or choice, and a
//   reason of 1 to 2,000 characters) out of those to answer; N/A items have no fields and do
//   not count;
// - beside each score, the anchor of its group that the score falls in ("7-8: ...").
// Every text shown comes from the page (the anchors listed above the items), never from here.
(() => {
  "use strict";
  const form = document.getElementById("questionnaire");
  if (!form) return;
  const REASON_MAX = 2000;
  const done = document.getElementById("progress-done");
  const ranges = {};
  document.querySelectorAll("[data-anchors-of]").forEach((list) => {
    ranges[list.dataset.anchorsOf] = Array.from(list.querySelectorAll("li[data-range]")).map((entry) => {
      const [low, high] = entry.dataset.range.split(/[-–]/).map((bound) => Number(bound.trim()));
      return { low, high: Number.isNaN(high) || high === undefined ? low : high, text: entry.textContent.trim() };
    });
  });
  const answered = (item) => {
    const score = item.querySelector('input[type="number"]');
    const scored = score ? score.value.trim() !== "" && score.checkValidity() : Boolean(item.querySelector('input[type="radio"]:checked'));
    const reason = item.querySelector("textarea");
    const length = reason ? reason.value.trim().length : 0;
    return scored && length >= 1 && length <= REASON_MAX;
  };
  const showAnchor = (item) => {
    const hint = item.querySelector(".anchor-hint");
    const score = item.querySelector('input[type="number"]');
    if (!hint || !score) return;
    const value = score.value.trim() === "" ? NaN : Number(score.value);
    const anchor = (ranges[item.dataset.group] || []).find((range) => value >= range.low && value <= range.high);
    hint.textContent = anchor ? anchor.text : "";
    hint.hidden = !anchor;
  };
  const count = () => {
    if (done) done.textContent = String(Array.from(form.querySelectorAll("[data-item]")).filter(answered).length);
  };
  form.addEventListener("input", (event) => {
    const item = event.target.closest("[data-item]");
    if (item) showAnchor(item);
    count();
  });
  form.addEventListener("change", count);
  form.querySelectorAll("[data-item]").forEach(showAnchor);
  count();
})();
