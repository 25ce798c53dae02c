"use strict";
// The table's phone page: the live table from Server-Sent Events, and the journal's history.
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const page = document.getElementById("page");
const connection = document.getElementById("connection");
let live = null;
let stream = null;

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;", "'": "&#39;" })[c]);
}
function cardText(code) {
  // One notation everywhere: "10♦", "Q♠", "JK".
  const text = String(code);
  if (text === "JK") return "JK";
  const rank = text.slice(0, -1) === "T" ? "10" : text.slice(0, -1);
  return rank + (SUITS[text.slice(-1)] || text.slice(-1));
}
function card(code) {
  if (code === "JK") return '<span class="card">JK</span>';
  const suit = code.slice(-1);
  const red = suit === "H" || suit === "D" ? " red" : "";
  return `<span class="card${red}" data-card="${esc(code)}">${esc(cardText(code))}</span>`;
}
function localTime(stamp) {
  // The journal's times are UTC; the page shows them in the phone's own time zone.
  const when = new Date(stamp);
  if (Number.isNaN(when.getTime())) return String(stamp).slice(0, 16).replace("T", " ");
  return when.toLocaleString([], { dateStyle: "short", timeStyle: "short" });
}
function bidText(bid) { return bid === "pass" ? "pass" : String(bid); }

function renderLive() {
  if (!live) { page.innerHTML = "<p>No game yet.</p>"; return; }
  const s = live;
  const names = s.seats;
  const c = s.contract;
  const trick = s.trick;
  const played = {};
  if (trick) for (const [seat, code] of trick.cards) played[seat] = code;
  const seats = ["N", "E", "S", "W"].map((seat) => {
    const classes = ["seat"];
    if (s.turn === seat) classes.push("turn");
    if (trick && trick.winner === seat) classes.push("won");
    return `<div class="${classes.join(" ")} at-${esc(seat)}" id="seat-${esc(seat)}">` +
      `<div>${esc(names[seat])}${s.dealer === seat ? " (dealer)" : ""}</div>` +
      `<div>${played[seat] ? card(played[seat]) : "&nbsp;"}</div></div>`;
  }).join("");
  const alarms = s.alarms.map((r) => `<div class="box alarm">RENEGE by ${esc(r.seat)}: ` +
    `trick ${esc(r.trick)}, ${esc(SUITS[r.led] || r.led)} led, played ${card(r.card)}; ` +
    `proved by ${card(r.proved_by_card)} in trick ${esc(r.proved_by_trick)} (hand ${esc(r.hand)})</div>`).join("");
  const problems = s.problems.map((p) => `<div class="box problem">${esc(problemText(p))}</div>`).join("");
  const bids = s.bids.map(([seat, bid]) => `${esc(seat)} ${esc(bidText(bid))}`).join(", ") || "none yet";
  page.innerHTML = `
    <div class="scores">
      <div class="team NS"><div>NS</div><div class="points" id="score-NS">${esc(s.score.NS)}</div></div>
      <div class="team EW"><div>EW</div><div class="points" id="score-EW">${esc(s.score.EW)}</div></div>
    </div>
    <div class="meta" id="meta">Game ${esc(s.game)}, hand ${esc(s.hand)}; to ${esc(s.target)};
      ${s.winner ? `<b id="winner">${esc(s.winner)} won</b>` : `${esc(s.phase)}, turn <b id="turn">${esc(s.turn || "-")}</b>`}</div>
    ${alarms}${problems}
    <div class="box"><h2>Bids</h2><div id="bids">${bids}</div></div>
    <div class="box"><h2>Contract</h2><div id="contract">${c ? `${esc(c.seat)} bid ${esc(bidText(c.bid))}, trump ${SUITS[c.trump] || esc(c.trump)}` +
      (c.sitting_out ? `, ${esc(c.sitting_out)} sits out` : "") : "not yet"}</div></div>
    <div class="box"><h2>Trick ${trick ? esc(trick.number) : ""}</h2><div class="trick" id="trick">${seats}</div></div>
    <div class="box"><h2>Tricks won</h2><div id="tricks-won">NS ${esc(s.tricks_won.NS)}, EW ${esc(s.tricks_won.EW)}</div></div>`;
}

function problemText(p) {
  if (p.kind === "unreadable_card") return `${p.seat}: card unreadable, lay it flat`;
  if (p.kind === "already_played") return `${p.seat}: ${cardText(p.card)} was already played`;
  if (p.kind === "out_of_turn") return `${p.seat}: ${cardText(p.card)} waits for its turn`;
  if (p.kind === "disconnected") return `${p.device} down: ${p.reason}`;
  return JSON.stringify(p);
}

async function getJson(url) {
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(await answer.text());
  return answer.json();
}

async function renderGames() {
  const games = await getJson("/api/games");
  if (!games.length) { page.innerHTML = "<p>No games in the journal.</p>"; return; }
  page.innerHTML = `<div class="wide"><table id="games"><tr><th>#</th><th>started</th><th>NS</th><th>EW</th><th>hands</th><th>status</th></tr>` +
    games.slice().reverse().map((g) => `<tr><td><a href="#/games/${esc(g.id)}">${esc(g.id)}</a></td>` +
      `<td>${esc(localTime(g.started_at))}</td><td>${esc(g.score.NS)}</td><td>${esc(g.score.EW)}</td>` +
      `<td>${esc(g.hands)}</td><td>${esc(g.winner ? g.winner + " won" : g.status)}</td></tr>`).join("") + "</table></div>" +
    '<p><a id="csv" href="/api/games.csv" download="games.csv">Download the results (CSV)</a></p>';
}

const ORDER = ["N", "E", "S", "W"];

function rotated(first) {
  const at = ORDER.indexOf(first);
  return at < 0 ? ORDER : [...ORDER.slice(at), ...ORDER.slice(0, at)];
}

function biddingGrid(h) {
  // One column per seat from the dealer's left, one row per round of the auction.
  const seats = rotated(ORDER[(ORDER.indexOf(h.dealer) + 1) % 4]);
  const rows = [];
  let row = null;
  let last = -1;
  for (const [seat, bid] of h.bids) {
    const column = seats.indexOf(seat);
    if (!row || column <= last) { row = ["", "", "", ""]; rows.push(row); }
    row[column] = bidText(bid);
    last = column;
  }
  return `<table class="grid bids"><tr>${seats.map((seat) => `<th>${esc(seat)}</th>`).join("")}</tr>` +
    rows.map((r) => `<tr>${r.map((b) => `<td>${esc(b)}</td>`).join("")}</tr>`).join("") + "</table>";
}

function tricksGrid(h) {
  // Each trick as a row: the card each seat played, the trick's winner marked.
  const head = `<tr><th>#</th>${ORDER.map((seat) => `<th>${esc(seat)}</th>`).join("")}</tr>`;
  return `<table class="grid tricks">${head}` + h.tricks.map((t, i) => {
    const played = Object.fromEntries(t.cards);
    return `<tr><td>${esc(i + 1)}</td>` + ORDER.map((seat) => `<td${t.winner === seat ? ' class="won"' : ""}>` +
      (played[seat] ? card(played[seat]) : "") + "</td>").join("") + "</tr>";
  }).join("") + "</table>";
}

function contractText(h) {
  const c = h.contract;
  if (!c) return esc(h.result);
  return `${esc(c.seat)} bid ${esc(bidText(c.bid))} ${esc(SUITS[c.trump] || c.trump)}`;
}

async function renderGame(id) {
  const g = await getJson(`/api/games/${id}`);
  const hands = g.hands.map((h) => `<details class="box hand" id="hand-${esc(h.number)}"><summary>` +
    `<b>Hand ${esc(h.number)}</b> · ${contractText(h)} · NS ${esc(h.score_after.NS)} – EW ${esc(h.score_after.EW)}` +
    `</summary><div class="hand-body"><div><h2>Bidding</h2>${biddingGrid(h)}</div>` +
    `<div><h2>Tricks</h2>${tricksGrid(h)}</div></div>` +
    `<pre>${esc(h.account.join("\n"))}</pre></details>`).join("");
  page.innerHTML = `<h1>Game ${esc(g.id)}</h1>
    <p id="game-score">NS ${esc(g.score.NS)}, EW ${esc(g.score.EW)}${g.winner ? `; ${esc(g.winner)} won` : ""} (to ${esc(g.target)})</p>
    <div id="chart">${g.chart_svg}</div>
    <p><a id="download" href="/api/games/${esc(g.id)}/log" download="game-${esc(g.id)}.jsonl">Download the table log</a></p>
    ${hands}`;
}

async function renderStats() {
  const [stats, people] = await Promise.all([getJson("/api/stats"), getJson("/api/players")]);
  const rows = people.players.map((p) => `<tr><td>${esc(p.name)}</td><td>${esc(p.games)}</td>` +
    `<td>${esc(p.wins)}</td><td>${esc(p.made)}</td><td>${esc(p.set)}</td><td>${esc(p.moons)}</td>` +
    `<td>${esc(p.reneges)}</td></tr>`).join("");
  const players = people.players.length ? `<div id="players-chart">${people.chart_svg}</div>` +
    `<div class="wide"><table id="players"><tr><th>player</th><th>games</th><th>won</th><th>made</th>` +
    `<th>set</th><th>moons</th><th>reneges</th></tr>${rows}</table></div>`
    : "<p>No player named yet: [seats] in the table's config names them.</p>";
  const seats = Object.entries(stats.seats).map(([seat, s]) => {
    const bids = Object.entries(s.bids).map(([bid, r]) =>
      `<tr><td>bid ${esc(bid)}</td><td>${esc(r.made)} made</td><td>${esc(r.set)} set</td></tr>`).join("");
    return `<div class="box seat-stats" id="stats-${esc(seat)}"><h2>${esc(seat)}</h2>` +
      `<table>${bids || "<tr><td>no contracts</td></tr>"}</table>` +
      `<div class="meta">reneges ${esc(s.reneges)} · cards unreadable ${esc(s.unreadable)} · misread ${esc(s.misread)}</div></div>`;
  }).join("");
  page.innerHTML = `<div class="box"><h2>Players</h2>${players}</div>` +
    `<p>Over ${esc(stats.games)} game${stats.games === 1 ? "" : "s"}, by seat</p><div id="stats">${seats}</div>`;
}

function route() {
  const hash = location.hash || "#/";
  for (const [id, prefix] of [["nav-live", "#/"], ["nav-games", "#/games"], ["nav-stats", "#/stats"]]) {
    const here = prefix === "#/" ? hash === "#/" : hash.startsWith(prefix);
    document.getElementById(id).classList.toggle("here", here);
  }
  const game = hash.match(/^#\/games\/(\d+)$/);
  const shown = game ? renderGame(game[1]) : hash === "#/games" ? renderGames()
    : hash === "#/stats" ? renderStats() : Promise.resolve(renderLive());
  shown.catch((error) => { page.innerHTML = `<p>${esc(error.message)}</p>`; });
}

function connect() {
  stream = new EventSource("/api/events");  // reconnects by itself after a drop
  stream.addEventListener("open", () => { connection.textContent = "live"; connection.className = "up"; });
  stream.addEventListener("error", () => {
    // A stream the server ended is reopened at once; only a longer gap is shown.
    setTimeout(() => {
      if (stream.readyState !== EventSource.OPEN) { connection.textContent = "reconnecting"; connection.className = "down"; }
    }, 2000);
  });
  stream.addEventListener("state", (message) => {
    live = JSON.parse(message.data);
    document.body.dataset.seq = live.seq;
    followHand();
    if ((location.hash || "#/") === "#/") renderLive();
  });
}

// Corrections from the phone, only when the table's config sets a PIN (/api/corrections).
const correction = document.getElementById("correction");
const form = document.getElementById("correct-form");
const result = document.getElementById("correction-result");
let correctable = false;
const field = (id) => document.getElementById(id);

function showCorrection() {
  correction.hidden = !(correctable && (location.hash || "#/") === "#/");
  const action = field("c-action").value;
  for (const label of correction.querySelectorAll(".c-card")) label.hidden = action === "undo";
  for (const label of correction.querySelectorAll(".c-played")) label.hidden = action !== "correct";
}

function fillCards() {
  const codes = [];
  for (const suit of ["S", "H", "D", "C"]) for (const rank of ["9", "T", "J", "Q", "K", "A"]) codes.push(rank + suit);
  codes.push("JK");
  field("c-card").innerHTML = codes.map((code) => `<option value="${code}">` +
    (code === "JK" ? "joker" : `${code[0] === "T" ? "10" : code[0]}${SUITS[code[1]]}`) + "</option>").join("");
}

function followHand() {
  // The hand to correct follows the table until the player changes it.
  const hand = field("c-hand");
  if (live && !hand.dataset.touched) hand.value = live.hand;
}

async function sendCorrection(event) {
  event.preventDefault();
  const action = field("c-action").value;
  const request = { action, pin: field("c-pin").value };
  if (action !== "undo") { request.seat = field("c-seat").value; request.card = field("c-card").value; }
  if (action === "correct") { request.hand = Number(field("c-hand").value); request.trick = Number(field("c-trick").value); }
  field("c-send").disabled = true;
  result.className = "";
  result.textContent = "sending…";
  try {
    const answer = await fetch("/api/correct", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request) });
    const reply = await answer.json();
    const why = {
      200: "Accepted", 400: "Not understood", 401: "Refused", 403: "Refused", 409: "Refused by the referee",
      429: "Refused", 503: "Not taken" }[answer.status] || `Error ${answer.status}`;
    result.className = reply.accepted ? "accepted" : "refused";
    result.textContent = `${why}: ${reply.message}`;
    result.dataset.status = answer.status;
  } catch (error) {
    result.className = "refused";
    result.textContent = `Not sent: ${error.message}`;
    result.dataset.status = "0";
  } finally {
    field("c-send").disabled = false;
  }
}

fillCards();
field("c-action").addEventListener("change", showCorrection);
field("c-hand").addEventListener("input", () => { field("c-hand").dataset.touched = "1"; });
form.addEventListener("submit", sendCorrection);
window.addEventListener("hashchange", showCorrection);
fetch("/api/corrections").then((r) => r.json()).then((c) => { correctable = c.enabled; followHand(); showCorrection(); });

window.addEventListener("hashchange", route);
fetch("/api/live").then((r) => r.json()).then((s) => { if (s && !live) live = s; route(); });
connect();
