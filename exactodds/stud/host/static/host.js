// The host's page: set up a game, hand out one link (and QR code) per seat, run the evening.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const { api, follow, el } = Stud;
  let config = null;
  let game = null;     // the game shown, its last host view
  let following = "";  // the game whose stream is followed

  // every model the server offers (stud decide's presets and its --opponents files)
  function modelSelect(cls) {
    const select = el("select"); select.className = cls;
    select.setAttribute("aria-label", "the bot's model");
    for (const m of config.models) {
      const o = el("option", m.origin === "preset" ? m.name : `${m.name} (file)`);
      o.value = m.name; o.title = m.description; select.append(o);
    }
    return select;
  }

  function seatRow(k) {
    const row = el("p");
    row.className = "seat-row";
    const name = el("input"); name.value = k === 1 ? "Host" : `Seat ${k}`; name.dataset.k = k; name.className = "seat-name";
    name.setAttribute("aria-label", `seat ${k}'s name`);
    const bot = el("input"); bot.type = "checkbox"; bot.className = "seat-bot"; bot.checked = k > 2;
    const model = modelSelect("seat-model");
    const botLabel = el("label"); botLabel.append(bot, "bot");
    row.append(el("span", `Seat ${k} `), name, " ", botLabel, model);
    return row;
  }

  function drawSeatRows() {
    const n = Number($("seat-count").value);
    const box = $("seat-rows");
    while (box.children.length < n) box.append(seatRow(box.children.length + 1));
    while (box.children.length > n) box.lastChild.remove();
  }

  async function listGames() {
    const data = await api("GET", "/api/games");
    const t = $("games");
    t.replaceChildren();
    for (const g of data.games) {
      const tr = el("tr");
      const a = el("a", g.seats.join(", ")); a.href = "#"; a.addEventListener("click", (e) => { e.preventDefault(); open(g.game); });
      const td = el("td"); td.append(a);
      tr.append(td, el("td", g.status), el("td", `${g.hands_played} hands`), el("td", new Date(g.created * 1000).toLocaleString()));
      t.append(tr);
    }
  }

  async function create(ev) {
    ev.preventDefault();
    const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
      const s = { name: row.querySelector(".seat-name").value.trim() };
      if (row.querySelector(".seat-bot").checked) s.bot = row.querySelector(".seat-model").value;
      return s;
    });
    const body = { seats, stack: Number($("stack").value), coach: $("coach").checked,
      act_seconds: Number($("act-seconds").value), bot_seconds: Number($("bot-seconds").value),
      between_seconds: Number($("between-seconds").value) };
    body[$("length-unit").value] = Number($("length").value);
    if ($("length-unit").value === "minutes") body.hands = null;
    try {
      const v = await api("POST", "/api/games", body);
      $("form-message").textContent = "";
      open(v.game);
    } catch (e) { $("form-message").textContent = e.message; }
  }

  function linkOf(token) { return `${location.origin}/play#${token}`; }

  async function qr(which, img) {
    const r = await fetch(`/api/games/${game.game}/qr/${which}.svg`, { headers: { Authorization: "Bearer " + Stud.token } });
    if (r.ok) img.src = URL.createObjectURL(await r.blob());
  }

  function drawLinks() {
    const box = $("links");
    box.replaceChildren();
    const rows = game.links.seats.map((l) => ({ ...l, seatInfo: game.seats[l.seat - 1] }));
    for (const l of rows) {
      const row = el("div", null, "link-row");
      row.dataset.seat = l.seat;
      const s = l.seatInfo;
      row.append(el("strong", `${l.seat}. ${s.name}`));
      if (l.token) {
        const code = el("code", linkOf(l.token)); code.className = "seat-link";
        const img = el("img"); img.alt = `QR code of ${s.name}'s link`;
        qr(l.seat, img);
        row.append(code, img);
        const model = modelSelect("replace-model");
        const bot = el("button", "Replace by a bot", "secondary replace-bot");
        bot.addEventListener("click", () => control("seat_bot", { seat: l.seat, model: model.value }));
        const fresh = el("button", "New link", "secondary new-link");
        fresh.addEventListener("click", () => control("seat_person", { seat: l.seat }));
        row.append(model, bot, fresh);
      } else {
        row.append(el("span", `bot (${s.model})`, "meta"));
        const person = el("button", "Seat a player here", "secondary seat-player");
        person.addEventListener("click", () => control("seat_person", { seat: l.seat }));
        row.append(person);
      }
      box.append(row);
    }
    const watch = el("div", null, "link-row");
    const code = el("code", linkOf(game.links.spectator)); code.id = "spectator-link";
    const img = el("img"); img.alt = "QR code of the spectators' link"; qr("watch", img);
    watch.append(el("strong", "Spectators"), code, img);
    box.append(watch);
  }

  function draw(v) {
    const linksChanged = !game || JSON.stringify(game.links) !== JSON.stringify(v.links)
      || JSON.stringify(game.seats.map((s) => s.kind)) !== JSON.stringify(v.seats.map((s) => s.kind));
    game = v;
    document.body.dataset.game = v.game;
    document.body.dataset.status = v.status;
    $("game-status").textContent = { waiting: "(not started)", playing: "(playing)", paused: "(paused)", over: "(over)" }[v.status];
    $("start").disabled = v.status !== "waiting";
    $("pause").disabled = v.status !== "playing";
    $("resume").disabled = v.status !== "paused";
    $("end").disabled = v.status === "over" || v.status === "waiting";
    if (linksChanged) drawLinks();
  }

  async function control(command, body) {
    $("host-message").textContent = "";
    try { draw(await api("POST", `/api/games/${game.game}/control/${command}`, body)); }
    catch (e) { $("host-message").textContent = e.message; }
  }

  function open(id) {
    $("new-game").hidden = true;
    $("game").hidden = false;
    game = null;
    api("GET", `/api/games/${id}`).then((v) => {
      draw(v);
      $("watch").src = `/play#${v.links.spectator}`;
      if (following !== id) { following = id; follow(`/api/games/${id}/events`, (view) => { if (view.game === game.game) draw(view); }, () => {}); }
    }).catch((e) => { $("host-message").textContent = e.message; });
  }

  for (const b of document.querySelectorAll("#controls button")) b.addEventListener("click", () => control(b.dataset.control, {}));
  $("back").addEventListener("click", (e) => { e.preventDefault(); location.reload(); });

  (async function start() {
    if (!Stud.token) { $("nokey").hidden = false; return; }
    try { config = await api("GET", "/api/config"); await listGames(); }
    catch (e) { $("nokey").hidden = false; $("nokey").append(el("p", e.message)); return; }
    for (let n = config.seats.min; n <= config.seats.max; n++) { const o = el("option", n); o.value = n; $("seat-count").append(o); }
    $("seat-count").value = 5;
    $("seat-count").addEventListener("change", drawSeatRows);
    drawSeatRows();
    $("form").addEventListener("submit", create);
    $("new-game").hidden = false;
  })();
})();
