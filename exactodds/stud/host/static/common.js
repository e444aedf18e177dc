// What the host's page and a player's page share: the link's token, the API, the live stream, cards.
"use strict";
const Stud = (function () {
  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
  // The token is after the # of the page's address: browsers never send it to the server.
  const token = decodeURIComponent(location.hash.slice(1));

  // The API with the link's token (in a header: never in a URL the server sees).
  function api(method, path, body) {
    return Web.api(method, path, body, { Authorization: "Bearer " + token });
  }

  // Server-sent events read through fetch (EventSource cannot send the token in a header);
  // reconnects after a drop, and the first event after a (re)connection is the whole view.
  function follow(path, onView, onGone) {
    let delay = 500;
    async function once() {
      const r = await fetch(path, { headers: { Authorization: "Bearer " + token } });
      if (!r.ok) { const data = await r.json(); onGone(data.error || ("HTTP " + r.status)); return false; }
      delay = 500;
      const reader = r.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return true;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = "message", data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("data: ")) data += line.slice(6);
          }
          if (event === "view") onView(JSON.parse(data), Date.now());
          if (event === "gone") { onGone(JSON.parse(data).error); return false; }
        }
      }
    }
    (async function loop() {
      for (;;) {
        let again = true;
        try { again = await once(); } catch (e) { again = true; }
        if (!again) return;
        await new Promise((ok) => setTimeout(ok, delay));
        delay = Math.min(delay * 2, 5000);
      }
    })();
  }

  function card(text, extra) {
    const el = document.createElement("span");
    el.setAttribute("role", "img");
    if (!text || text === "down") {
      el.className = "card back"; el.setAttribute("aria-label", "face-down card"); return el;
    }
    const rank = text.slice(0, -1), suit = text.slice(-1);
    el.className = "card" + (suit === "h" || suit === "d" ? " red" : "") + (extra ? " " + extra : "");
    el.dataset.card = text;
    el.setAttribute("aria-label", `${rank === "T" ? "10" : rank} of ${SUIT_NAMES[suit]}`);
    el.innerHTML = `<span>${rank === "T" ? "10" : rank}</span><span class="s">${SUITS[suit]}</span>`;
    return el;
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function signed(n) { return (n > 0 ? "+" : "") + n; }

  return { token, api, follow, card, el, signed };
})();
