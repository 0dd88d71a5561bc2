// The room's sectioned editor (trials/room.html), driven by room.js: one field per section
// of the document the awaited act writes (complaint, defence, appeal, judgment...), under
// the section's heading; drafts live in localStorage until the document is filed.
window.legalsimDocumentEditor = (room, statement) => {
  "use strict";
  const box = document.getElementById("document-editor");
  const title = document.getElementById("document-title");
  const sections = document.getElementById("document-sections");
  const draftKey = (frame) => `legalsim:${room.dataset.wsPath}:${frame.seat}:${frame.document.kind}`;
  const values = () => (sections ? Object.fromEntries(Array.from(sections.querySelectorAll("textarea")).map((field) => [field.dataset.section, field.value])) : {});

  // The document as it will be filed: its title, then each section under its heading.
  function previewShow(documentSpec) {
    const preview = document.getElementById("document-preview");
    if (!preview) return;
    const written = values();
    const parts = documentSpec.sections.filter((section) => (written[section.id] || "").trim()).map((section) => `${section.heading}\n${written[section.id].trim()}`);
    preview.textContent = [documentSpec.title, ...parts].join("\n\n");
  }

  // The editor for the awaited ``frame`` when it writes a document; else the statement's box.
  function show(frame) {
    const documentSpec = frame && frame.document;
    if (!box) return;
    box.hidden = !documentSpec;
    statement.hidden = Boolean(documentSpec);
    sections.replaceChildren();
    if (!documentSpec) return;
    title.textContent = documentSpec.title;
    const saved = JSON.parse(localStorage.getItem(draftKey(frame)) || "{}");
    documentSpec.sections.forEach((section) => {
      const label = document.createElement("label");
      label.textContent = section.heading;
      const field = document.createElement("textarea");
      field.rows = 3;
      field.name = section.id;
      field.dataset.section = section.id;
      field.value = saved[section.id] || "";
      field.addEventListener("input", () => {
        localStorage.setItem(draftKey(frame), JSON.stringify(values()));
        previewShow(documentSpec);
      });
      label.append(field);
      sections.append(label);
    });
    previewShow(documentSpec);
    sections.querySelector("textarea").focus();
  }

  // The court recorded the document: its draft goes.
  const filed = (frame) => localStorage.removeItem(draftKey(frame));

  return { show, values, filed };
};
