// The Caribbean Stud table page: renders the session state the API returns; no build step, no CDN.
"use strict";
(function () {
  const KEY = "exactodds.table.session";
  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
  const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
    6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
  const $ = (id) => document.getElementById(id);
  let state = null;
  let history = [];
  let chip = 5;
  let pending = 0;  // actions sent and not yet answered

  function fmt(x, digits) {
    const v = Number(x);
    const d = digits === undefined ? 4 : digits;
    return (v > 0 ? "+" : "") + v.toFixed(d);
  }
  function money(x) {
    const v = Number(x);
    return Number.isInteger(v) ? v.toLocaleString("en-US") : v.toFixed(2);
  }
  function fraction(text) { const [p, q] = String(text).split("/"); return Number(p) / Number(q || 1); }
  function signedMoney(x) { const v = Number(x); return (v > 0 ? "+" : "") + money(v); }

  const { api } = Web;  // the shared JSON API (/shared/web.js)

  function cardEl(text) {
    const el = document.createElement("div");
    el.setAttribute("role", "img");
    if (!text) { el.className = "card back"; el.setAttribute("aria-label", "face-down card"); return el; }
    const rank = text.slice(0, -1), suit = text.slice(-1);
    el.className = "card" + (suit === "h" || suit === "d" ? " red" : "");
    el.dataset.card = text;
    el.setAttribute("aria-label", `${RANK_NAMES[rank]} of ${SUIT_NAMES[suit]}`);
    el.innerHTML = `<span class="corner">${rank}${SUITS[suit]}</span><span class="rank">${rank === "T" ? "10" : rank}</span><span class="suit">${SUITS[suit]}</span>`;
    return el;
  }
  function showCards(box, cards, placeholders) {
    box.replaceChildren();
    if (cards === null) {
      for (let i = 0; i < placeholders; i++) {
        const e = document.createElement("div");
        e.className = "card empty";
        e.setAttribute("role", "img");
        e.setAttribute("aria-label", "no card yet");
        box.appendChild(e);
      }
      return;
    }
    cards.forEach((c) => box.appendChild(cardEl(c)));
  }
  function chipEl(value) {
    const el = document.createElement("span");
    el.className = "chip v" + value;
    el.textContent = value;
    return el;
  }

  function render() {
    const s = state;
    document.body.dataset.phase = s.phase;
    document.body.dataset.handsPlayed = String(s.hands_played);
    document.body.dataset.session = s.id;
    $("paytable-name").textContent = "paytable " + s.paytable;
    $("paytable-label").textContent = `${s.paytable} · raise ${s.call.endsWith("/1") ? s.call.slice(0, -2) : s.call}× ante`;
    $("hand-count").textContent = `hand ${Math.min(s.hands_played + (s.phase === "decision" ? 1 : 0), s.hands)} of ${s.hands}`;
    const note = $("deck-note");
    note.textContent = s.deck;
    note.className = s.practice ? "practice" : "";
    $("bankroll").textContent = money(s.bankroll_float);
    $("deposited").textContent = money(s.deposited);
    $("limits").textContent = `${s.min_bet}–${s.max_bet}`;
    $("hide-coach").checked = s.hide_coach;

    // Cards: the hand in play (dealer up card + backs), else the last settled hand.
    const last = s.last_hand;
    const res = $("result");
    res.className = "result";
    if (s.phase === "decision") {
      showCards($("player-cards"), s.hand.player, 5);
      showCards($("dealer-cards"), [s.hand.dealer_up, null, null, null, null], 5);
      $("player-hand").textContent = s.hand.player_hand;
      $("dealer-hand").textContent = "";
      res.textContent = s.hand.can_afford_raise ? "Raise or fold?" :
        `Not enough funds to raise ${money(s.hand.raise_amount_float)}: deposit, or fold.`;
    } else if (last && s.phase !== "betting") {
      showCards($("player-cards"), last.player, 5);
      showCards($("dealer-cards"), last.dealer, 5);
      $("player-hand").textContent = last.player_hand;
      $("dealer-hand").textContent = last.dealer_hand;
      res.textContent = `${last.event_label}: ${signedMoney(last.net_float)}`;
      res.className = "result " + (last.net_float > 0 ? "win" : last.net_float < 0 ? "loss" : "");
    } else {
      showCards($("player-cards"), null, 5);
      showCards($("dealer-cards"), null, 5);
      $("player-hand").textContent = "";
      $("dealer-hand").textContent = "";
      res.textContent = s.spot.length ? "Deal when ready." : "Choose a chip and click the Ante spot.";
    }

    // Spots.
    const stack = $("ante-chips");
    stack.replaceChildren();
    // The stakes: the chips being bet, the hand in play, or the settled hand's ante and raise until the
    // next bet. The BET spot holds only a raise that was made; in a decision it says what one would cost.
    const settled = (s.phase === "settled" || s.phase === "complete") && last ? last : null;
    const onSpot = s.phase === "betting" ? s.spot : (settled || s.phase === "decision" ? s.last_bet : []);
    onSpot.forEach((v) => stack.appendChild(chipEl(v)));
    let ante = s.spot.reduce((a, b) => a + b, 0), raised = 0;
    if (s.phase === "decision") ante = s.hand.ante;
    else if (settled) { ante = settled.ante; raised = settled.decision === "raise" ? settled.ante * fraction(s.call) : 0; }
    $("ante-total").textContent = money(ante);
    $("raise-total").textContent = money(raised);
    $("raise-hint").textContent = s.phase === "decision" ? `raise costs ${money(s.hand.raise_amount_float)}` : "";
    $("raise-spot").classList.toggle("staked", raised > 0);

    // Buttons from the legal actions.
    const legal = new Set(s.legal_actions);
    document.querySelectorAll("#actions button").forEach((b) => { b.disabled = !legal.has(b.dataset.action); });
    $("ante-spot").disabled = !legal.has("chips");
    $("btn-deposit").disabled = !legal.has("deposit");

    renderCoach(s, last);
    renderPaytable(s);
    renderChart(s);
    renderResult(s);
    $("export-csv").href = `/api/sessions/${s.id}/history?format=csv`;
    $("export-json").href = `/api/sessions/${s.id}/history`;
    schedulePoll();
    if (cardShown()) loadCard();  // a new session may have another paytable
  }

  function renderCoach(s, last) {
    let c = null, cost = "–";
    if (s.phase === "decision") {
      c = s.hand.coach;
      if (!c) {
        ["coach-ev-raise", "coach-ev-fold", "coach-optimal"].forEach((id) => { $(id).textContent = "hidden until you decide"; });
        $("coach-cost").textContent = "–";
      }
    } else if (last) {
      c = { ev_raise_float: last.ev_raise_float, ev_fold_float: last.ev_fold_float, optimal: last.optimal };
      cost = last.decision === "void" ? "void deal" :
        `you ${last.decision === "raise" ? "raised" : "folded"}: ${Number(last.cost_float) === 0 ? "0 (optimal)" : Number(last.cost_float).toFixed(4) + " ante"}`;
    }
    const verdict = $("coach-verdict");
    if (s.phase === "decision" && s.hand.coach) {
      verdict.textContent = `Coach: ${s.hand.coach.optimal} (EV raise ${fmt(s.hand.coach.ev_raise_float)}, fold ${fmt(s.hand.coach.ev_fold_float)})`;
    } else if (s.phase === "decision") {
      verdict.textContent = "Coach: hidden until you decide";
    } else if (last && s.phase !== "betting") {
      verdict.textContent = `Coach: optimal was ${last.optimal}; ${cost}`;
    } else {
      verdict.textContent = "";
    }
    verdict.dataset.optimal = s.phase === "decision" && s.hand.coach ? s.hand.coach.optimal : "";
    if (c) {
      $("coach-ev-raise").textContent = fmt(c.ev_raise_float);
      $("coach-ev-fold").textContent = fmt(c.ev_fold_float);
      $("coach-optimal").textContent = c.optimal;
      $("coach-cost").textContent = cost;
    } else if (s.phase !== "decision") {
      ["coach-ev-raise", "coach-ev-fold", "coach-optimal", "coach-cost"].forEach((id) => { $(id).textContent = "–"; });
    }
    const t = s.session;
    $("s-hands").textContent = `${t.hands} of ${s.hands}`;
    $("s-net").textContent = signedMoney(t.net_float);
    $("s-mistakes").textContent = t.mistakes;
    $("s-given-up").textContent = `${Number(t.ev_given_up_float).toFixed(4)} antes (${money(t.ev_given_up_chips_float)} chips)`;
    $("s-expected").textContent = signedMoney(Number(t.expected_net_float).toFixed(2));
    if (s.odds) {
      $("s-expectation").textContent = `${fmt(s.odds.expected_net_float)} antes`;
      $("odds").textContent = `Exact odds of ${s.odds.hands} hands of optimal play: player ${(100 * s.odds.p_player_float).toFixed(2)}% · draw ${(100 * s.odds.p_draw_float).toFixed(2)}% · bank ${(100 * s.odds.p_bank_float).toFixed(2)}%`;
    } else {
      $("s-expectation").textContent = s.hands > 100 ? "only up to 100 hands" : "computing…";
    }
  }

  function renderPaytable(s) {
    const box = $("paytable");
    if (box.dataset.paytable === s.paytable) return;
    box.dataset.paytable = s.paytable;
    box.replaceChildren();
    s.pays.forEach(({ label, pays: pay }) => {
      const tr = document.createElement("tr");
      const p = pay.endsWith("/1") ? pay.slice(0, -2) : pay;
      tr.innerHTML = `<th>${label}</th><td>${p} to 1</td>`;
      box.appendChild(tr);
    });
  }

  function renderChart(s) {
    const svg = $("chart");
    const W = 320, H = 160, P = 22;
    const counted = history.filter((h) => h.decision !== "void");
    const net = [0], exp = [0], prior = [0];
    const perHand = s.odds ? Number(s.odds.per_hand_ev_float) : null;
    counted.forEach((h) => {
      net.push(net[net.length - 1] + h.net_float);
      exp.push(exp[exp.length - 1] + h.expected_net_float);
      prior.push(prior[prior.length - 1] + (perHand === null ? 0 : perHand * h.ante));
    });
    const n = Math.max(s.hands, 1);
    const all = net.concat(exp, perHand === null ? [] : prior, [1, -1]);
    const lo = Math.min(...all), hi = Math.max(...all);
    const x = (i) => P + (W - 2 * P) * i / n;
    const y = (v) => H - P - (H - 2 * P) * (v - lo) / (hi - lo || 1);
    const path = (vals) => vals.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    let out = `<line x1="${P}" x2="${W - P}" y1="${y(0)}" y2="${y(0)}" stroke="#ffffff55" />`;
    out += `<text x="2" y="${y(hi) + 4}" fill="#ccc" font-size="10">${money(Math.round(hi))}</text>`;
    out += `<text x="2" y="${y(lo) + 4}" fill="#ccc" font-size="10">${money(Math.round(lo))}</text>`;
    out += `<text x="${W - P}" y="${H - 4}" fill="#ccc" font-size="10" text-anchor="end">hand ${n}</text>`;
    if (perHand !== null) out += `<path d="${path(prior)}" fill="none" stroke="#8fb8ff" stroke-width="1.5" stroke-dasharray="1 3" />`;
    out += `<path id="chart-expected" d="${path(exp)}" fill="none" stroke="#e8c35a" stroke-width="1.5" stroke-dasharray="5 4" />`;
    out += `<path id="chart-net" d="${path(net)}" fill="none" stroke="#9cff9c" stroke-width="2" />`;
    svg.innerHTML = out;
    svg.dataset.points = String(net.length - 1);
  }

  function renderResult(s) {
    const box = $("session-result");
    if (s.phase !== "complete") { box.hidden = true; return; }
    box.hidden = false;
    const who = s.outcome === "player" ? "The player wins the session" :
      s.outcome === "bank" ? "The bank wins the session" : "The session is a draw";
    let html = `<strong id="session-outcome" data-outcome="${s.outcome}">${who}</strong>: net ${signedMoney(s.session.net_float)} after ${s.hands_played} hands.`;
    if (s.odds) {
      const mine = { player: "p_player", bank: "p_bank", draw: "p_draw" }[s.outcome];
      html += `<table class="figures" id="outcome-odds"><tr><th colspan="2">exact odds of ${s.odds.hands} hands of optimal play (constant ante)</th></tr>`;
      [["player", "p_player"], ["draw", "p_draw"], ["bank", "p_bank"]].forEach(([name, key]) => {
        html += `<tr class="${key === mine ? "mine" : ""}"><th>${name}</th><td>${(100 * s.odds[key + "_float"]).toFixed(3)}%</td></tr>`;
      });
      html += "</table>";
    }
    html += `<button id="btn-play-again" type="button">Play another session</button>`;
    box.innerHTML = html;
    $("btn-play-again").onclick = newSession;
  }

  // The strategy card tab: the card of the session's paytable, found by the server's background worker
  // (202 while it is being found: ask again, 1 s, 2 s, 4 s ... at most 8 s apart).
  let card = null, cardTimer = null, cardDelay = 1000, cardAsking = false;
  function cardShown() { return !$("card-view").hidden; }
  function showTab(which) {
    const onCard = which === "card";
    $("card-view").hidden = !onCard;
    $("table-view").hidden = onCard;
    $("tab-card").setAttribute("aria-selected", String(onCard));
    $("tab-table").setAttribute("aria-selected", String(!onCard));
    if (onCard) loadCard();
  }
  async function loadCard() {
    if (!state || cardTimer !== null || cardAsking) return;  // one request or timer at a time
    const paytable = state.paytable;
    $("card-paytable").textContent = paytable;
    if (card && card.paytable === paytable) { renderCard(card); return; }
    $("card-body").hidden = true;
    let data;
    cardAsking = true;
    try {
      data = await api("GET", `/api/sessions/${state.id}/card`);
    } catch (e) {
      $("card-status").dataset.status = "failed";
      $("card-status").textContent = e.message;
      return;
    } finally {
      cardAsking = false;
    }
    if (!state || state.paytable !== paytable) { if (cardShown()) loadCard(); return; }  // the session changed meanwhile
    if (data.status === "ready") { card = data; cardDelay = 1000; renderCard(data); return; }
    $("card-status").dataset.status = data.status;
    $("card-status").textContent = data.status === "busy" ? "The server is busy; asking again shortly…" :
      `Finding the cheapest card for ${data.paytable}: a few seconds (up to a minute the first time on this machine)…`;
    cardTimer = setTimeout(() => { cardTimer = null; if (cardShown()) loadCard(); }, cardDelay);
    cardDelay = Math.min(2 * cardDelay, 8000);
  }
  function units(text) {
    const [p, q] = String(text).split("/");
    return q === undefined || q === "1" ? Number(p).toLocaleString("en-US") : (Number(p) / Number(q)).toFixed(3);
  }
  function percent(x, digits) { return (100 * Number(x)).toFixed(digits) + "%"; }
  function renderCard(c) {
    const chosen = c.card, lines = chosen.card.text;
    $("card-status").dataset.status = "ready";
    $("card-status").textContent = "";
    $("card-title").textContent = `Caribbean Stud · ${c.paytable} (${c.description})`;
    const rules = $("card-rules");
    rules.replaceChildren();
    lines.slice(0, -1).forEach((line) => {
      const li = document.createElement("li");
      li.textContent = line.replace(/^\d+\. /, "");
      rules.appendChild(li);
    });
    $("card-line").textContent = lines[lines.length - 1];
    $("card-cost").textContent = `${units(chosen.cost_vs_optimal_units)} units over all ` +
      `${c.combinations.toLocaleString("en-US")} deals · ${percent(chosen.cost_vs_optimal_per_ante_float, 6)} per ante`;
    $("card-edge").textContent = percent(chosen.house_edge_float, 4);
    $("card-optimal").textContent = percent(c.optimal_house_edge_float, 4);
    $("card-thumb").textContent = `${units(c.rules_of_thumb_cost_units)} units`;
    const table = $("card-pareto");
    table.replaceChildren();
    const head = document.createElement("tr");
    c.pareto_table.headers.forEach((h) => { const th = document.createElement("th"); th.textContent = h; head.appendChild(th); });
    table.appendChild(head);
    c.pareto_table.rows.forEach((row, i) => {
      const tr = document.createElement("tr");
      if (c.pareto[i].rules === c.rules_asked) tr.className = "mine";
      row.forEach((cell) => { const td = document.createElement("td"); td.textContent = cell; tr.appendChild(td); });
      table.appendChild(tr);
    });
    $("card-note").textContent = c.proof_note;
    $("card-body").hidden = false;
  }

  async function refreshHistory() {
    const h = await api("GET", `/api/sessions/${state.id}/history`);
    history = h.hands;
  }

  // Actions run one after another in the order they were asked for: quick clicks are never lost.
  let queue = Promise.resolve();
  function act(action, body) {
    pending += 1;
    document.body.dataset.busy = "1";
    queue = queue.then(() => send(action, body));
    return queue;
  }

  async function send(action, body) {
    $("message").textContent = "";
    try {
      state = await api("POST", `/api/sessions/${state.id}/${action}`, body);
      if (action === "fold" || action === "raise") await refreshHistory();
    } catch (e) {
      $("message").textContent = e.message;
    } finally {
      pending -= 1;
      render();
      document.body.dataset.busy = pending ? "1" : "0";
    }
  }

  function chipAction(name) {
    if (name === "add") return act("chips", { add: chip });
    return act("chips", { [name]: true });
  }

  async function load(id) {
    state = await api("GET", `/api/sessions/${id}`);
    await refreshHistory();
  }

  async function newSession() {
    state = await api("POST", "/api/sessions", {});
    history = [];
    localStorage.setItem(KEY, state.id);
    render();
  }

  function setupChips() {
    const box = $("chip-choices");
    [1, 5, 25, 100].forEach((v, i) => {
      const el = chipEl(v);
      el.id = "chip-" + v;
      el.setAttribute("role", "radio");
      el.title = `chip ${v} (key ${i + 1})`;
      el.onclick = () => selectChip(v);
      box.appendChild(el);
    });
    selectChip(chip);
  }
  function selectChip(v) {
    chip = v;
    document.querySelectorAll("#chip-choices .chip").forEach((c) => {
      c.classList.toggle("selected", c.id === "chip-" + v);
      c.setAttribute("aria-checked", c.id === "chip-" + v ? "true" : "false");
    });
  }

  function setup() {
    setupChips();
    $("ante-spot").onclick = () => chipAction("add");
    $("btn-undo").onclick = () => chipAction("undo");
    $("btn-clear").onclick = () => chipAction("clear");
    ["deal", "raise", "fold", "rebet", "new_game"].forEach((a) => {
      $("btn-" + a.replace("_", "-")).onclick = () => act(a);
    });
    $("deposit-form").onsubmit = (ev) => {
      ev.preventDefault();
      act("deposit", { amount: Number($("deposit-amount").value) });
    };
    $("hide-coach").onchange = (ev) => act("coach", { hide: ev.target.checked });
    $("btn-new-session").onclick = newSession;
    $("tab-table").onclick = () => showTab("table");
    $("tab-card").onclick = () => showTab("card");
    document.addEventListener("keydown", (ev) => {
      if (ev.target.tagName === "INPUT" || ev.ctrlKey || ev.metaKey || ev.altKey || !state) return;
      const k = ev.key.toLowerCase();
      if (k === "k") { showTab(cardShown() ? "table" : "card"); ev.preventDefault(); return; }
      if (cardShown()) return;  // the table's keys act on the table only when it is in sight
      const legal = new Set(state.legal_actions);
      const map = { u: "undo", c: "clear", d: "deal", r: "raise", f: "fold", b: "rebet", n: "new_game" };
      if (["1", "2", "3", "4"].includes(k)) selectChip([1, 5, 25, 100][Number(k) - 1]);
      else if ((k === "a" || k === " ") && legal.has("chips")) chipAction("add");
      else if (k === "u" || k === "c") { if (legal.has(map[k])) chipAction(map[k] === "undo" ? "undo" : "clear"); }
      else if (map[k] && legal.has(map[k])) act(map[k]);
      else if (k === "enter" && legal.has("deal")) act("deal");
      else if (k === "enter" && legal.has("rebet")) act("rebet");
      else if (k === "p") $("deposit-amount").focus();
      else if (k === "h") act("coach", { hide: !state.hide_coach });
      else return;
      ev.preventDefault();
    });
  }

  async function start() {
    setup();
    const fromUrl = new URLSearchParams(location.search).get("session");
    const id = fromUrl || localStorage.getItem(KEY);
    try {
      if (id) { await load(id); localStorage.setItem(KEY, id); render(); return; }
    } catch (e) {
      if (e.status !== 404) { $("message").textContent = e.message; return; }
    }
    await newSession();
  }
  // While the exact session odds are being counted (or the server's queue is full), ask again, less
  // and less often (1 s, 2 s, 4 s ... at most 30 s); otherwise never.
  const WAITING = new Set(["queued", "counting", "busy"]);
  let pollDelay = 1000, pollTimer = null;
  function schedulePoll() {
    if (!state || !WAITING.has(state.odds_status)) { pollDelay = 1000; return; }
    if (pollTimer !== null) return;
    pollTimer = setTimeout(async () => {
      pollTimer = null;
      if (!pending) {
        try {
          const s = await api("GET", `/api/sessions/${state.id}`);
          if (!pending && s.id === state.id) { state.odds = s.odds; state.odds_status = s.odds_status; render(); }
        } catch (e) { /* keep the page */ }
      }
      pollDelay = Math.min(2 * pollDelay, 30000);
      schedulePoll();
    }, pollDelay);
  }
  start();
})();
