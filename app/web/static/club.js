"use strict";
// The club page: every table's live score and state, the finished games and the standings.
const page = document.getElementById("page");
const connection = document.getElementById("connection");
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;", "'": "&#39;" })[c]);
}

// A table's page: only a plain http(s) address (the club's schema has checked it already).
const PAGE_URL = /^https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&()*+,;=%]+$/i;

function tableName(name, url) {
  if (typeof url !== "string" || !PAGE_URL.test(url)) return esc(name);
  return `<a class="table-link" href="${esc(url)}" rel="noopener" target="_blank">${esc(name)}</a>`;
}

function tableBox(name, entry) {
  const s = entry.state;
  if (!s) return `<div class="box" id="table-${esc(name)}"><h2>${esc(name)} · ${esc(entry.status)}</h2>no game yet</div>`;
  const c = s.contract;
  const line = s.winner ? `<b>${esc(s.winner)} won</b>` :
    `hand ${esc(s.hand)}, ${esc(s.phase)}, turn ${esc(s.turn || "-")}` +
    (c ? `; ${esc(c.seat)} bid ${esc(c.bid)} ${esc(SUITS[c.trump] || c.trump)}` : "");
  const seats = s.seats || {};
  const names = `<div class="meta names">${esc(seats.N || "N")} &amp; ${esc(seats.S || "S")} – ` +
    `${esc(seats.E || "E")} &amp; ${esc(seats.W || "W")}</div>`;
  const alarm = s.alarms && s.alarms.length ? ` <span class="alarm">RENEGE ${esc(s.alarms[0].seat)}</span>` : "";
  return `<div class="box" id="table-${esc(name)}"><h2>${tableName(name, s.url)} · ${esc(entry.status)}</h2>` +
    `<div class="scores"><div class="team NS"><div>NS</div><div class="points">${esc(s.score.NS)}</div></div>` +
    `<div class="team EW"><div>EW</div><div class="points">${esc(s.score.EW)}</div></div></div>` +
    `${names}<div class="meta">game ${esc(s.game)} to ${esc(s.target)}: ${line}${alarm}</div></div>`;
}

function ranking(rows) {
  return `<div class="wide"><table class="ranking"><tr><th></th><th>pair</th><th>played</th>` +
    `<th>won</th><th>for</th><th>against</th></tr>` + rows.map((r, i) => `<tr><td>${esc(i + 1)}</td>` +
    `<td>${esc(r.pair)}</td><td>${esc(r.played)}</td><td>${esc(r.won)}</td><td>${esc(r.points_for)}</td>` +
    `<td>${esc(r.points_against)}</td></tr>`).join("") + "</table></div>";
}

function nightBox(n) {
  const when = new Date(`${n.night}T12:00:00`);
  const title = Number.isNaN(when.getTime()) ? n.night
    : when.toLocaleDateString([], { weekday: "long", year: "numeric", month: "long", day: "numeric" });
  return `<div class="box night" id="night-${esc(n.night)}"><h2>Club night · ${esc(title)}</h2>` +
    `<div class="meta">${esc(n.games)} game${n.games === 1 ? "" : "s"} at ${esc(n.tables.join(", "))}</div>` +
    ranking(n.standings) + "</div>";
}

function render(club) {
  const tables = Object.entries(club.tables).map(([name, entry]) => tableBox(name, entry)).join("")
    || "<p>No table on the broker yet.</p>";
  const standings = club.standings.map((r, i) => `<tr><td>${esc(i + 1)}</td><td>${esc(r.pair)}</td>` +
    `<td>${esc(r.played)}</td><td>${esc(r.won)}</td><td>${esc(r.points_for)}</td><td>${esc(r.points_against)}</td></tr>`).join("");
  const finished = club.finished.slice().reverse().map((g) => `<tr><td>${esc(g.table)}</td><td>${esc(g.id)}</td>` +
    `<td>${esc(g.score.NS)}</td><td>${esc(g.score.EW)}</td><td>${esc(g.winner)}</td><td>${esc(g.hands)}</td></tr>`).join("");
  const nights = (club.nights || []).map(nightBox).join("");
  page.innerHTML = `<div id="tables">${tables}</div>
    <div id="nights">${nights}</div>
    <p class="no-print"><a id="csv" href="/api/club.csv" download="club.csv">Download the results (CSV)</a>
      · <button type="button" id="print">Print the club nights</button></p>
    <div class="box"><h2>Standings</h2><div class="wide"><table id="standings"><tr><th></th><th>pair</th><th>played</th>` +
    `<th>won</th><th>for</th><th>against</th></tr>${standings}</table></div></div>
    <div class="box"><h2>Finished games</h2><div class="wide"><table id="finished"><tr><th>table</th><th>game</th><th>NS</th>` +
    `<th>EW</th><th>winner</th><th>hands</th></tr>${finished}</table></div></div>`;
}

const stream = new EventSource("/api/events");  // reconnects by itself after a drop
stream.addEventListener("open", () => { connection.textContent = "live"; connection.className = "up"; });
stream.addEventListener("error", () => {
  setTimeout(() => {
    if (stream.readyState !== EventSource.OPEN) { connection.textContent = "reconnecting"; connection.className = "down"; }
  }, 2000);
});
stream.addEventListener("state", (message) => render(JSON.parse(message.data)));
page.addEventListener("click", (event) => { if (event.target.id === "print") window.print(); });
