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

  // A result opened beside the list: mark it as the current one, and scroll the pane (only the
  // pane: the list stays where it is) to the marked passage.
  document.addEventListener("click", function (event) {
    const link = event.target.closest && event.target.closest("#hits a.open");
    if (!link) return;
    document.querySelectorAll("#hits li.current").forEach(function (li) { li.classList.remove("current"); });
    link.closest("li").classList.add("current");
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "reader") event.detail.target.removeAttribute("data-shown");
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    const pane = event.detail.target;
    if (!pane || pane.id !== "reader") return;
    const below = Math.max(pane.getBoundingClientRect().top, 8);
    pane.style.maxHeight = Math.max(200, window.innerHeight - below - 8) + "px";  // the pane fits the window
    const hit = pane.querySelector("[data-hit]");
    const top = hit ? hit.getBoundingClientRect().top - pane.getBoundingClientRect().top + pane.scrollTop : 0;
    pane.scrollTop = Math.max(0, top - pane.clientHeight / 3);
    pane.setAttribute("data-shown", "");
  });
})();
