// Behaviour every page shares, in a file rather than inline attributes (the Content-Security-
// Policy refuses inline scripts and handlers). A <select data-submit-on-change> sends its form
// as soon as a choice is made (the language menu); without this script its form's button does.
(() => {
  document.addEventListener("change", event => {
    const field = event.target;
    if (field instanceof HTMLSelectElement && field.hasAttribute("data-submit-on-change") && field.form) {
      field.form.requestSubmit ? field.form.requestSubmit() : field.form.submit();
    }
  });
})();

// A table wider than the screen (.scroll) is marked "overflows" (an accent edge says it scrolls
// sideways; "at-end" once scrolled to its end) and made reachable by keyboard.
(() => {
  const mark = box => {
    const overflows = box.scrollWidth > box.clientWidth + 1;
    box.classList.toggle("overflows", overflows);
    box.classList.toggle("at-end", overflows && box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
    if (overflows && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
  };
  const markAll = () => document.querySelectorAll(".scroll").forEach(mark);
  document.addEventListener("DOMContentLoaded", markAll);
  window.addEventListener("resize", markAll);
  document.addEventListener("scroll", event => {
    if (event.target instanceof Element && event.target.classList.contains("scroll")) mark(event.target);
  }, true);
})();
