// Alama portal: copy buttons. Loaded from /portal/assets (no inline script: the CSP forbids it).
// <button data-copy="ID"> copies the text of the element with that id.
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy]");
  if (!button) return;
  var source = document.getElementById(button.getAttribute("data-copy"));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(function () {
    button.textContent = "Copied";
  });
});
