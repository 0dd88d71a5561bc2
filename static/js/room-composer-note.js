// The room composer's note and count (trials/room.html), driven by room.js: what was not
// sent and why, next to the box, in the page's language (the note's data-* texts), and how
// long the statement is against the limit the protocol enforces (docs/protocol.md).
window.legalsimComposerNote = (form) => {
  "use strict";
  const note = document.getElementById("composer-note");
  const count = document.getElementById("composer-count");
  const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (_, name) => values[name] ?? "");
  const number = (value) => value.toLocaleString(document.documentElement.lang || undefined);

  // ``key`` names one of the note's texts (none clears it); an unknown one says "refused".
  function says(key, values = {}) {
    if (!note) return;
    note.textContent = key ? fill(note.dataset[key] || note.dataset.errorOther, values) : "";
    note.hidden = !key;
    note.dataset.showing = key || "";
  }

  // A refusal by its protocol code: ``not_your_turn`` says the note's errorNotYourTurn.
  const refused = (code) => says(`error${String(code).split("_").map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("")}`);

  // The count shows from 80% of the limit and turns red past it; true when past it.
  function measured(length) {
    const limit = Number(form?.dataset.sayLimit || 0);
    if (!count || !limit) return false;
    count.hidden = length < limit * 0.8;
    count.classList.toggle("over", length > limit);
    count.textContent = fill(count.dataset.count, { count: number(length), limit: number(limit) });
    if (length <= limit && note?.dataset.showing === "tooLong") says(null);
    return length > limit;
  }

  const tooLong = (length) => says("tooLong", { count: number(length), limit: number(Number(form.dataset.sayLimit)) });

  return { says, refused, measured, tooLong };
};
