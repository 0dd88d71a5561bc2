// Pairwise rating (issue 32, item 11): on a phone, trajectories A and B are two tabs above
// one panel; on a wider screen the stylesheet (css/rating.css) shows them side by side and
// hides the tabs. Without this script both panels stay, one under the other.
(() => {
  "use strict";
  const grid = document.querySelector(".rating-grid.pairwise");
  const tablist = grid && grid.querySelector(".pair-tabs");
  if (!tablist) return;
  const tabs = Array.from(tablist.querySelectorAll('[role="tab"]'));
  const panels = Array.from(grid.querySelectorAll(".pair-panels > [data-side]"));
  const show = (side, focus) => {
    tabs.forEach((tab) => {
      const on = tab.dataset.side === side;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    });
    panels.forEach((panel) => panel.classList.toggle("shown", panel.dataset.side === side));
  };
  tablist.addEventListener("click", (event) => {
    const tab = event.target.closest('[role="tab"]');
    if (tab) show(tab.dataset.side, false);
  });
  tablist.addEventListener("keydown", (event) => {
    if (!["ArrowRight", "ArrowLeft"].includes(event.key) || event.altKey) return;
    event.preventDefault();
    const index = tabs.findIndex((tab) => tab.getAttribute("aria-selected") === "true");
    const next = tabs[(index + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
    show(next.dataset.side, true);
  });
  show(tabs[0].dataset.side, false);
  grid.classList.add("pair-tabbed");
})();
