// The time left in the round on a player's game page, counted down from what the server said
// when the page was sent (the server owns the clock: reloading the page asks it again).
// Without this script the page shows the time left as of its loading.
(() => {
  const el = document.getElementById("round-clock");
  if (!el || el.dataset.state !== "running") return;
  const time = el.querySelector(".time");
  const start = performance.now();
  const remaining = Number(el.dataset.remaining);
  const format = seconds => {
    const hours = Math.floor(seconds / 3600);
    const minutes = String(Math.floor((seconds % 3600) / 60)).padStart(2, "0");
    const rest = String(seconds % 60).padStart(2, "0");
    return hours ? `${hours}:${minutes}:${rest}` : `${minutes}:${rest}`;
  };
  const timer = setInterval(() => {
    const left = Math.max(0, remaining - Math.floor((performance.now() - start) / 1000));
    time.textContent = format(left);
    if (left > 0) return;
    clearInterval(timer);
    el.classList.add("expired");
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = ` (${el.dataset.expiredLabel})`;
    el.appendChild(label);
  }, 1000);
})();
