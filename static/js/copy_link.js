// Copy buttons next to read-only links (an invitation's): the button names the field it
// copies (data-copy) and says data-copied once done. Buttons come hidden, shown here, so a
// page without this script offers only the field; htmx fragments are handled as they land.
function showCopyButtons(root) {
  root.querySelectorAll("button[data-copy]").forEach((button) => {
    button.hidden = false;
  });
}

async function copyField(button) {
  const field = document.getElementById(button.dataset.copy);
  if (!field) return;
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    document.execCommand("copy");
  }
  button.textContent = button.dataset.copied;
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-copy]");
  if (button) copyField(button);
});
document.addEventListener("htmx:load", (event) => showCopyButtons(event.target));
showCopyButtons(document);
