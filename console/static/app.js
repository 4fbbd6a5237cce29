// nl2sql console: small helpers; every page works without them.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // Ctrl/Cmd+Enter submits the form of a text box.
  document.querySelectorAll("textarea").forEach((ta) => {
    ta.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey) && ta.form) {
        ev.preventDefault();
        ta.form.requestSubmit();
      }
    });
  });
  // Forgetting asks first.
  document.querySelectorAll("form.forget").forEach((f) => {
    f.addEventListener("submit", (ev) => {
      if (!window.confirm("Forget this knowledge?")) ev.preventDefault();
    });
  });
  // A long answer says it is being worked on.
  document.querySelectorAll("form.ask, form.check").forEach((f) => {
    f.addEventListener("submit", () => {
      f.querySelectorAll("button").forEach((b) => { b.dataset.label = b.textContent; b.textContent = "Working…"; });
    });
  });
});
