// A player's (or a spectator's) page: the table as the server's live view shows it, the buttons of the
// engine's legal actions, the countdown and the coach.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const { api, follow, card, el, signed } = Stud;
  let me = null;            // {role, game, seat}
  let view = null;          // the last view received
  let received = 0;         // when it arrived (ms, this page's clock)
  let sending = false;
  let coachTurn = -1;       // the turn whose advice is shown or asked for
  let advised = null;       // the coach's recommendation: {turn, best} (best in PHH text, e.g. "cbr 4")

  function secondsLeft() {
    if (!view || !view.hand || view.hand.deadline === null) return null;
    return Math.max(0, view.hand.deadline - view.now - (Date.now() - received) / 1000);
  }

  function renderSeats() {
    const box = $("seats");
    box.replaceChildren();
    for (const s of view.seats) {
      const div = el("div", null, "seat" + (s.seat === me.seat ? " me" : "") + (s.to_act ? " to-act" : "")
        + (s.folded ? " folded" : ""));
      div.dataset.seat = s.seat;
      const who = el("div", null, "who");
      who.append(el("span", s.name + (s.seat === me.seat ? " (you)" : ""), "name"));
      const tags = el("span");
      if (s.dealer) tags.append(el("span", "D", "badge dealer"));
      if (s.kind === "bot") tags.append(el("span", "bot", "badge"));
      if (s.folded) tags.append(el("span", "folded", "badge"));
      who.append(tags);
      div.append(who);
      div.append(el("div", `${s.stack} chips` + (s.bet ? ` · bet ${s.bet}` : ""), "chips"));
      const cards = el("div", null, "cards");
      if (s.in_hand) {
        if (s.seat === me.seat && view.hole) cards.append(card(view.hole, "hole"));
        else if (s.hole) cards.append(card(null));
        for (const c of s.up) cards.append(card(c));
      }
      div.append(cards);
      box.append(div);
    }
  }

  function renderActions() {
    const box = $("actions");
    box.replaceChildren();
    if (!view.legal) return;
    const clock = el("span", "", "");
    clock.id = "clock";
    box.append(clock);
    for (const a of view.legal) {
      const b = el("button", a.label, a.action === "f" ? "fold" : "");
      b.dataset.action = a.action;
      if (a.amount !== null) b.dataset.amount = a.amount;
      b.disabled = sending;
      b.addEventListener("click", () => send(a));
      box.append(b);
    }
    markAdvised();
    tick();
  }

  // The recommended action's button stands out once the coach has answered for this turn.
  function markAdvised() {
    const [kind, amount] = advised && view && advised.turn === view.turn ? advised.best.split(" ") : [];
    for (const b of $("actions").querySelectorAll("button")) {
      b.classList.toggle("advised", !!kind && b.dataset.action === kind
        && (amount === undefined || b.dataset.amount === amount));
    }
  }

  async function send(a) {
    if (sending) return;
    sending = true;
    document.body.dataset.busy = "1";
    for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
    $("message").textContent = "";
    const body = { action: a.action, turn: view.turn };
    if (a.action === "cbr") body.amount = a.amount;
    try {
      show(await api("POST", `/api/games/${me.game}/seats/${me.seat}/act`, body), Date.now());
    } catch (e) {
      $("message").textContent = e.message;
    } finally {
      sending = false;
      document.body.dataset.busy = "0";
      if (view) renderActions();
    }
  }

  function renderHand() {
    const h = view.hand;
    const pot = $("pot");
    if (!h) {
      pot.textContent = view.status === "over" ? "The evening is over." : view.status === "waiting"
        ? "Waiting for the host to start the game." : "Next hand in a moment…";
      $("events").replaceChildren();
      $("turn-note").textContent = "";
      return;
    }
    const side = h.pots.length > 1 ? " (" + h.pots.map((p, i) => (i ? "side " : "main ") + p.amount).join(", ") + ")" : "";
    pot.textContent = `Hand ${h.number} · round ${h.round} of 4 · pot ${h.pot}${side}`;
    const actor = view.seats.find((s) => s.seat === h.actor);
    $("turn-note").textContent = actor ? (actor.seat === me.seat ? "Your turn." : `${actor.name} to act.`) : "";
    const list = $("events");
    list.replaceChildren(...h.events.map((t) => el("li", t)));
    list.scrollTop = list.scrollHeight;
  }

  function renderLast() {
    const last = view.last_hand;
    $("last").hidden = !last;
    if (!last) return;
    $("last-title").textContent = `Hand ${last.number}`;
    const body = $("last-body");
    body.replaceChildren();
    for (const line of last.summary) body.append(el("p", line));
    for (const s of last.showdown) {
      const row = el("div", null, "shown");
      row.dataset.seat = s.seat;
      row.append(el("span", view.seats[s.seat - 1].name + ":"));
      for (const c of s.cards) row.append(card(c));
      row.append(el("span", s.hand, "meta"));
      body.append(row);
    }
  }

  function renderStandings() {
    const t = $("standings");
    t.replaceChildren();
    const head = el("tr");
    head.append(el("th", "Player"), el("th", "Chips", "num"), el("th", "Net", "num"));
    t.append(head);
    for (const r of view.standings) {
      const tr = el("tr");
      tr.append(el("td", r.name), el("td", r.chips, "num"), el("td", signed(r.net), "num " + (r.net > 0 ? "plus" : r.net < 0 ? "minus" : "")));
      t.append(tr);
    }
  }

  function renderHeader() {
    const mine = view.seats.find((s) => s.seat === me.seat);
    $("who").textContent = mine ? `${mine.name}, seat ${mine.seat}` : "spectator";
    const st = $("status");
    st.textContent = { waiting: "waiting for the host", playing: "", paused: "paused by the host", over: "the evening is over" }[view.status];
    st.className = "meta" + (view.status === "paused" ? " status-paused" : "");
    const L = view.length;
    $("length").textContent = L.hands !== undefined ? `hands played ${L.hands_played} of ${L.hands}`
      : `hands played ${L.hands_played} · ${Math.ceil(L.seconds_left / 60)} min left`;
    $("download").hidden = view.status !== "over";
  }

  async function askCoach() {
    const box = $("coach");
    const mineToAct = view.legal && view.coach_allowed && me.role === "seat";
    box.hidden = !mineToAct;
    if (!mineToAct || coachTurn === view.turn) return;
    coachTurn = view.turn;
    const turn = view.turn;
    $("coach-body").replaceChildren(el("p", "Thinking…", "meta"));
    for (let wait = 300; coachTurn === turn; wait = Math.min(wait * 1.5, 2000)) {
      let data;
      try { data = await api("GET", `/api/games/${me.game}/coach`); } catch (e) { $("coach-body").replaceChildren(el("p", e.message, "meta")); return; }
      if (coachTurn !== turn || !view || view.turn !== turn) return;
      if (data.httpStatus === 200) {
        // the shared wording: the recommendation first, one row per action (indented), pot odds last
        $("coach-body").replaceChildren(...data.lines.map((l, i) =>
          el("p", l.trim(), i === 0 ? "best" : l.startsWith("  ") ? "row" : "")));
        advised = { turn, best: data.best };
        markAdvised();
        return;
      }
      await new Promise((ok) => setTimeout(ok, wait));
    }
  }

  function show(v, at) {
    if (view && v.version < view.version) return;  // an answer older than the stream's last view
    view = v; received = at;
    document.body.dataset.status = v.status;
    document.body.dataset.turn = v.turn;
    document.body.dataset.version = v.version;
    document.body.dataset.actor = v.hand && v.hand.actor ? v.hand.actor : "";
    document.body.dataset.hand = v.hand ? v.hand.number : (v.last_hand ? v.last_hand.number : 0);
    renderHeader(); renderSeats(); renderHand(); renderActions(); renderLast(); renderStandings();
    askCoach();
  }

  function tick() {
    const clock = $("clock");
    const left = secondsLeft();
    if (!clock) return;
    clock.textContent = left === null ? "" : `${Math.ceil(left)} s`;
    clock.className = left !== null && left < 6 ? "short" : "";
  }
  setInterval(tick, 250);

  $("download-link").addEventListener("click", async (ev) => {
    ev.preventDefault();
    const r = await fetch(`/api/games/${me.game}/history.phhs`, { headers: { Authorization: "Bearer " + Stud.token } });
    if (!r.ok) { $("message").textContent = (await r.json()).error; return; }
    const url = URL.createObjectURL(await r.blob());
    const a = el("a"); a.href = url; a.download = `stud-${me.game.slice(0, 8)}.phhs`; a.click();
  });

  (async function start() {
    if (!Stud.token) { $("pot").textContent = "This page needs a player's link (ask the host)."; return; }
    try { me = await api("GET", "/api/me"); } catch (e) { $("pot").textContent = e.message; return; }
    document.body.dataset.seat = me.seat || "";
    follow(`/api/games/${me.game}/events`, show, (why) => { $("message").textContent = why; document.body.dataset.status = "gone"; });
  })();
})();
