// The replay page: the server replays a record (checking it) into frames; this steps through
// them.  A record holds finished hands, so every hand is shown open.
"use strict";

let frames = [];
let at = 0;
let table = { sides: ["N/S", "E/W"], bottom: 2, table_size: 4 };  // from the server, per record
const $ = (id) => document.getElementById(id);
const TOKEN = document.querySelector('meta[name="fh-token"]').content;

async function load(url, options) {
  const response = await fetch(url, options);
  const data = await response.json();
  if (!response.ok) { $("message").textContent = data.error; return; }
  frames = data.frames;
  table = data;
  setTable(data.seat_names, data.short_names);
  $("table").dataset.size = String(data.table_size);
  at = 0;
  $("message").textContent = frames.length ? "" : "The record has no finished hand yet.";
  show();
}

function show() {
  const f = frames[at];
  $("position").textContent = frames.length ? `step ${at + 1} of ${frames.length}` : "";
  $("position").dataset.step = String(at);
  if (!f) return;
  $("step-text").textContent = f.text;
  const sides = table.sides;
  $("scores").textContent = sides.map((t, i) => `${t} ${f.scores[i]}`).join(" · ") + ` · hand ${f.hand}`;
  $("contract").textContent = f.contract_text;
  const out = f.sitting_out || [];
  $("trick").replaceChildren(trickEl(f.trick, table.bottom, false, f.result ? [] : out));
  $("replay-result").textContent = f.result || "";
  auctionEl($("auction"), f.auction, -1);
  $("last-trick").replaceChildren(f.last_trick ? trickEl(f.last_trick.cards, table.bottom, true) : "none yet");
  $("tricks-won").textContent = "Tricks: " + sides.map((t, i) => `${t} ${f.tricks_won[i]}`).join(", ") +
    (f.tricks_by_seat && f.tricks_by_seat.length === 6
      ? " [" + f.tricks_by_seat.map((w, seat) => `${seatLabel(seat)} ${w}`).join(", ") + "]" : "");
  const rows = [];
  f.hands.forEach((groups, seat) => {
    const mark = (seat === f.turn ? " ▶" : "") + (out.includes(seat) ? " (sits out)" : "");
    rows.push(el("span", { class: "who", text: SEATS[seat] + mark }));
    rows.push(handEl(groups, (c) => cardEl(c, { disabled: true })));
  });
  $("hands").replaceChildren(...rows);
  // the kitty as dealt, and each exchange's discards once made
  const extra = [el("span", { class: "who", text: "Kitty" }),
    handEl([{ suit: "", cards: f.kitty_dealt || [] }], (c) => cardEl(c, { disabled: true }))];
  for (const d of f.discards || []) {
    extra.push(el("span", { class: "who", text: SEATS[d.seat] + " discarded" }),
      handEl([{ suit: "", cards: d.cards }], (c) => cardEl(c, { disabled: true })));
  }
  $("kitty-discards").replaceChildren(...extra);
}

function go(i) { at = Math.max(0, Math.min(frames.length - 1, i)); show(); }

$("first").onclick = () => go(0);
$("prev").onclick = () => go(at - 1);
$("next").onclick = () => go(at + 1);
$("next-hand-step").onclick = () => {
  const hand = frames[at] && frames[at].hand;
  let i = at + 1;
  while (i < frames.length && frames[i].hand === hand) i++;
  go(i);
};
$("load-game").onclick = () => load("/api/replay/game");
$("load-file").onchange = async (e) => {
  const file = e.target.files[0];
  if (file) load("/api/replay", { method: "POST", headers: { "Content-Type": "application/json", "X-FH-Token": TOKEN }, body: await file.text() });
};
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") go(at + 1);
  if (e.key === "ArrowLeft") go(at - 1);
});
load(new URLSearchParams(location.search).has("file") ? "/api/replay/file" : "/api/replay/game");
