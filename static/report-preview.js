// Keeps the report form's "what sending records" line current as the player types: the form is
// posted as a preview (nothing is recorded) and the line the server renders is swapped in, so
// the result is worked out in one place only. Without this script the "Check" button does it.
(() => {
  const form = document.querySelector("form.report-form");
  const line = document.getElementById("report-preview");
  if (!form || !line || !window.fetch || !window.DOMParser) return;
  let timer = null;
  let asked = 0;
  const refresh = async () => {
    const ask = ++asked;
    const body = new FormData(form);
    body.set("action", "preview");
    try {
      // This page itself (form.action would be the buttons named "action").
      const page = window.location.pathname + window.location.search;
      const response = await fetch(page, { method: "POST", body, credentials: "same-origin" });
      if (!response.ok || ask !== asked) return;
      const answer = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = answer.getElementById("report-preview");
      if (!fresh) return;
      line.className = fresh.className;
      line.innerHTML = fresh.innerHTML;  // same live region: screen readers hear the change
    } catch (error) {
      // Offline or refused: the line stays, and the "Check" button still works.
    }
  };
  const later = event => {
    if (event.target.name === "confirm_vp") return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 400);
  };
  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();
