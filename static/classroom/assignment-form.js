// The assignment form lists every procedure's seats and stages; once a case is chosen only
// its procedure's show (the others are disabled, so they are not sent).
(function () {
  "use strict";
  const select = document.getElementById("assignment-case");
  if (!select) return;
  const show = () => {
    const option = select.selectedOptions[0];
    const procedure = option ? option.dataset.procedure : "";
    for (const fieldset of document.querySelectorAll("fieldset[data-procedure]")) {
      const mine = fieldset.dataset.procedure === procedure;
      fieldset.hidden = !mine;
      fieldset.disabled = !mine;
    }
  };
  select.addEventListener("change", show);
  show();
})();
