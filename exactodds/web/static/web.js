// What every table page shares (the Caribbean Stud table, the stud host's pages): the JSON API,
// each POST with its own idempotency key. Served at /shared/web.js; no build step, no CDN.
"use strict";
const Web = (function () {
  // A key per request, sent again if the request is retried: the server applies it once.
  function requestKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // The answer's JSON (with its HTTP status as httpStatus, e.g. 202 "ask again"); an Error with the
  // server's one-line message (and .status) when it refuses. headers: e.g. a link's Authorization.
  async function api(method, path, body, headers) {
    const opts = { method, headers: { ...(headers || {}) } };
    if (method === "POST") {  // the servers take JSON POSTs only (a page of another site cannot send them)
      opts.headers["Content-Type"] = "application/json";
      opts.headers["Idempotency-Key"] = requestKey();
      opts.body = JSON.stringify(body === undefined ? {} : body);
    }
    const r = await fetch(path, opts);
    const data = await r.json();
    if (!r.ok) { const e = new Error(data.error || ("HTTP " + r.status)); e.status = r.status; throw e; }
    Object.defineProperty(data, "httpStatus", { value: r.status, enumerable: false });
    return data;
  }

  return { requestKey, api };
})();
