// Pica UI: search as you type in the live modes, keys (/ to search, arrows to move, Enter to open),
// and the read view scrolled to its marked passage. No inline script: the pages' CSP forbids it.
(function () {
  "use strict";
  let timer = null;

  function form() { return document.getElementById("search"); }
  function query() { return document.getElementById("q"); }
  function links() { return Array.from(document.querySelectorAll("#hits .hit a.open")); }

  document.addEventListener("input", function (event) {
    const f = form();
    if (!f || event.target !== query()) return;
    const mode = document.getElementById("mode");
    const option = mode && mode.options[mode.selectedIndex];
    if (!option || !option.hasAttribute("data-live")) return;  // embedding modes: on Enter only
    clearTimeout(timer);
    timer = setTimeout(function () {
      if (query().value.trim()) htmx.trigger(f, "submit");
    }, 250);
  });

  document.addEventListener("keydown", function (event) {
    const target = event.target;
    const typing = target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA");
    if (event.key === "/" && !typing && query()) {
      event.preventDefault();
      query().focus();
      query().select();
      return;
    }
    if (event.key === "Escape" && typing) { target.blur(); return; }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const all = links();
    if (!all.length || (typing && target !== query())) return;
    const at = all.indexOf(document.activeElement);
    let next;
    if (event.key === "ArrowDown") next = at < 0 ? 0 : Math.min(at + 1, all.length - 1);
    else if (at <= 0) { if (query()) query().focus(); event.preventDefault(); return; }
    else next = at - 1;
    event.preventDefault();
    all[next].focus();
    all[next].scrollIntoView({ block: "nearest" });
  });

  function scrollToHit() {
    const hit = document.querySelector("[data-hit]");
    if (hit) hit.scrollIntoView({ block: "center" });
  }
  document.addEventListener("DOMContentLoaded", scrollToHit);
})();
