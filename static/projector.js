// The projector page, live. The server owns the clock: every few seconds this asks it for the
// time left and counts down locally in between, so every screen in the hall agrees. When the
// round's tables or results change, the lists are fetched again and swapped in. On a wide
// screen, the type is as large as the rows allow (a few rows fill the screen) with every name
// whole, and a list longer than its panel shows one page at a time and turns the page by itself.
// Without this script the page refreshes itself (a meta refresh inside <noscript>).
(() => {
  const root = document.documentElement;
  const body = document.body;
  if (!window.fetch || !window.DOMParser || !body.dataset.stateUrl) return;
  const pollEvery = Number(body.dataset.pollSeconds || 5) * 1000;
  const pageEvery = Number(body.dataset.pageSeconds || 12) * 1000;
  const wide = window.matchMedia("(min-width: 1024px) and (min-height: 500px)");
  let version = body.dataset.version;
  let clock = null; // {state, remaining, at}: the server's last word and when it came
  let turn = 0; // pages turned so far; each list shows turn modulo its page count

  const format = seconds => {
    const s = Math.max(0, seconds);
    const hours = Math.floor(s / 3600);
    const minutes = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
    const rest = String(s % 60).padStart(2, "0");
    return hours ? `${hours}:${minutes}:${rest}` : `${minutes}:${rest}`;
  };

  const readClock = () => {
    const el = document.getElementById("clock");
    if (!el) return null;
    return { state: el.dataset.state, remaining: Number(el.dataset.remaining), at: performance.now() };
  };

  const left = () => {
    if (clock.state !== "running") return clock.remaining;
    return Math.max(0, clock.remaining - Math.floor((performance.now() - clock.at) / 1000));
  };

  const tick = () => {
    const el = document.getElementById("clock");
    if (!el || !clock || clock.state === "not_started") return;
    const seconds = left();
    el.querySelector(".time").textContent = format(seconds);
    if (seconds === 0 && (clock.state === "running" || clock.state === "paused")) {
      el.classList.add("expired");
      el.querySelector(".label").textContent = el.dataset.expiredLabel;
    }
  };

  const applyState = state => {
    const el = document.getElementById("clock");
    const results = document.getElementById("results-in");
    if (results && state.results_text) results.textContent = state.results_text;
    if (!el || !state.clock) return;
    el.dataset.state = state.clock.state;
    el.dataset.remaining = state.clock.remaining_seconds;
    el.className = `clock ${state.clock.state}${state.clock.expired ? " expired" : ""}`;
    el.querySelector(".label").textContent = state.clock.label;
    el.querySelector(".time").textContent = state.clock.text;
    clock = readClock();
    tick();
  };

  // Pages one list at the type size in force: the rows its panel holds per column, as many
  // columns as it needs (up to the CSS's --columns), the rest on later pages. Returns the page
  // count.
  const paginate = list => {
    const items = Array.from(list.children);
    const pager = list.closest(".panel").querySelector(".pager");
    items.forEach(item => { item.hidden = false; });
    list.style.removeProperty("--columns");
    if (!wide.matches || items.length === 0) {
      pager.textContent = "";
      list.style.removeProperty("--per-column");
      return 1;
    }
    const rowHeight = items[0].getBoundingClientRect().height || 1;
    const perColumn = Math.max(1, Math.floor((list.clientHeight + 0.5) / rowHeight));
    const most = Number(getComputedStyle(list).getPropertyValue("--columns")) || 1;
    const columns = Math.min(most, Math.ceil(items.length / perColumn));
    const size = perColumn * columns;
    const pages = Math.ceil(items.length / size);
    const page = turn % pages;
    list.style.setProperty("--columns", columns);
    list.style.setProperty("--per-column", Math.min(perColumn, Math.ceil(items.length / columns)));
    items.forEach((item, index) => { item.hidden = Math.floor(index / size) !== page; });
    pager.textContent = pages > 1 ? `${page + 1}/${pages}` : "";
    return pages;
  };

  const lists = () => Array.from(document.querySelectorAll(".panel .rows"));
  const cut = el => el.scrollWidth > el.clientWidth + 1;
  // The boxes that hold names and may cut them: a pairing's "who", a list's "name".
  const names = () => Array.from(document.querySelectorAll(
    ".rows > li:not([hidden]) > .who, .rows > li:not([hidden]) > .name"));

  // Whether every list fits one page at ``px``, each name shown whole or narrowed to no less
  // than 60 % (the few long names are narrowed alone rather than everyone's type; an army
  // beside a name gives way first).
  const fitsAt = px => {
    root.style.setProperty("--size", `${px}px`);
    const pages = lists().map(paginate);
    return pages.every(n => n === 1) && names().every(el => el.clientWidth / el.scrollWidth >= 0.6);
  };

  // The largest type at which everything fits one screen, names whole (#24 item 5): a few
  // rows fill the screen in large type, many in smaller; when even the smallest type needs
  // pages, the CSS's size and paging. A name still too long for its column is narrowed alone.
  const fit = () => {
    root.style.removeProperty("--size");
    names().forEach(el => el.style.removeProperty("font-size"));
    if (!wide.matches) return;
    const smallest = Math.max(14, Math.round(window.innerHeight / 70));
    let low = smallest;
    let high = Math.round(window.innerHeight / 11);
    if (!fitsAt(low)) {
      root.style.removeProperty("--size");
    } else {
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (fitsAt(middle)) low = middle; else high = middle;
      }
      root.style.setProperty("--size", `${low}px`);
    }
    lists().forEach(paginate);
    narrowCutNames();
  };

  const narrowCutNames = () => {
    names().filter(cut).forEach(el => {
      el.style.fontSize = `${Math.max(0.5, (el.clientWidth / el.scrollWidth) * 0.97).toFixed(3)}em`;
    });
  };

  const layout = () => {
    root.classList.toggle("paged", wide.matches);
    fit();
  };

  // A page turn keeps the size: only which rows show changes.
  const turnPage = () => {
    lists().forEach(paginate);
    names().forEach(el => el.style.removeProperty("font-size"));
    narrowCutNames();
  };

  const refreshLists = async () => {
    const response = await fetch(window.location.href, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    for (const id of ["bar", "panels"]) {
      const now = document.getElementById(id);
      const next = fresh.getElementById(id);
      if (now && next) now.replaceWith(document.importNode(next, true));
    }
    version = fresh.body.dataset.version;
    body.dataset.version = version;
    clock = readClock();
    layout();
    tick();
  };

  const poll = async () => {
    try {
      const response = await fetch(body.dataset.stateUrl, {
        cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" },
      });
      if (response.ok) {
        const state = await response.json();
        if (state.version !== version) await refreshLists();
        else applyState(state);
      }
    } catch (error) {
      // Offline for a moment: the clock goes on counting from the server's last word.
    }
    setTimeout(poll, pollEvery);
  };

  clock = readClock();
  layout();
  window.addEventListener("resize", layout);
  setInterval(tick, 1000);
  setInterval(() => { turn += 1; turnPage(); }, pageEvery);
  setTimeout(poll, pollEvery);
})();
