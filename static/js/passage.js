// The transcript, read by an instructor: words selected with the mouse (or a finger) in a
// turn or a document become the passage of that turn's or document's comment form, which
// opens. No inline script: the Content-Security-Policy forbids it.
(() => {
  const commentable = ".turn-text, .document-text";

  function passageTarget(selection) {
    if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
    const element = (node) => (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement);
    const start = element(selection.anchorNode)?.closest(commentable);
    const end = element(selection.focusNode)?.closest(commentable);
    if (!start || start !== end) return null;
    const block = start.closest(".turn, .document");
    const comments = block?.nextElementSibling;
    return comments?.classList.contains("turn-comments") ? comments : null;
  }

  function takeSelection() {
    const selection = window.getSelection();
    const comments = passageTarget(selection);
    const words = selection ? selection.toString().trim() : "";
    if (!comments || !words) return;
    const form = comments.querySelector("details.comment-form");
    const excerpt = form?.querySelector("textarea[name=excerpt]");
    if (!excerpt) return;
    excerpt.value = words;
    form.open = true;
  }

  document.addEventListener("mouseup", takeSelection);
  document.addEventListener("touchend", takeSelection);
  document.addEventListener("keyup", (event) => {
    if (event.shiftKey) takeSelection();
  });
})();
