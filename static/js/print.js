// The transcript's Print button (no inline script: the Content-Security-Policy forbids it).
document.querySelectorAll("[data-print]").forEach((button) => button.addEventListener("click", () => window.print()));
