// The game page: draws the snapshot the server sends (only what the player's seat may know),
// sends clicks to the server (which checks every move with the engine), and asks for the
// bots' moves one at a time at the server's pace.
"use strict";

const AIDS = ["hint", "estimate", "counter", "analyse", "reveal"];
const AID_TITLES = { hint: "Hint", estimate: "Points estimates", counter: "Card counter",
  analyse: "Analyse a bid", reveal: "Show all hands after the hand" };
let S = null;            // the latest snapshot
let events = 0;          // events already in the log
let timer = null;        // the pending bot move
let selected = new Set(); // discards chosen, before confirming
let aidKey = {};         // the decision each aid was last fetched for

const $ = (id) => document.getElementById(id);

async function call(method, url, body) {
  const options = { method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(url + (url.includes("?") ? "&" : "?") + "since=" + events, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

async function send(url, body) {
  try {
    const data = await call("POST", url, body);
    if (data.stands !== undefined) showMessage(data.message, data.stands ? "ok" : "warn");
    else showMessage("");
    render(data);
  } catch (err) {
    showMessage(err.message, "warn");
    refresh();
  }
}

function showMessage(text, kind = "") {
  const box = $("message");
  box.textContent = text || "";
  box.className = kind;
}

async function refresh() {
  try { render(await call("GET", "/api/state")); } catch (err) { showMessage(err.message, "warn"); }
}

// ---------------------------------------------------------------- drawing the table

function render(s) {
  S = s;
  setTable(s.seat_names, s.short_names);
  const status = $("status");
  status.dataset.phase = s.phase;
  status.dataset.yourTurn = String(s.your_turn);
  status.dataset.turn = String(s.turn);
  status.dataset.events = String(s.event_count);
  status.dataset.tricks = String(s.tricks_played);
  status.dataset.tableSize = String(s.table_size);
  const me = s.seat;
  $("scores").textContent = s.teams.map((t, i) =>
    `${t}${i === s.your_side ? " (you)" : ""} ${s.scores[i]}`).join(" · ") + ` · hand ${s.hand_no}`;
  $("contract").textContent = s.contract_text;
  drawSeats(s);
  $("trick").replaceChildren(trickEl(s.trick, me, false, s.phase === "play" ? s.sitting_out_seats : []));
  drawKitty(s);
  $("prompt").textContent = promptText(s);
  drawCalls(s);
  drawExchange(s);
  drawHand(s);
  $("claim").disabled = !s.can_claim;
  drawResult(s);
  auctionEl($("auction"), s.auction, me);
  $("last-trick").replaceChildren(s.last_trick ? trickEl(s.last_trick.cards, me, true) : "none yet");
  if (s.last_trick) $("last-trick").append(el("div", { text: "won by " + SEATS[s.last_trick.winner] }));
  $("tricks-won").textContent = `Tricks: ${tricksText(s.teams, s.tricks_won, s.tricks_by_seat)} (${s.tricks_played} of 10 played)`;
  drawLog(s);
  drawAids(s);
  schedule(s);
}

function promptText(s) {
  if (s.phase === "hand_over" || s.phase === "game_over") return "";
  if (!s.your_turn) return `${SEATS[s.turn]} to ${s.phase === "auction" ? "call" : "play"}…`;
  if (s.phase === "auction") return "Your call";
  if (s.phase === "exchange") return `Your exchange: choose ${s.discards_left} cards to discard`;
  return s.trick.length ? "Your play" : "Your lead";
}

// The other seats around the table (2, 3 or 5 of them); the boxes this table size does not
// use are emptied and hidden.
function drawSeats(s) {
  $("table").dataset.size = String(s.table_size);
  const used = new Set();
  for (let seat = 0; seat < s.table_size; seat++) {
    if (seat === s.seat) continue;
    used.add(position(seat, s.seat));
    drawSeat(s, seat);
  }
  for (const pos of ["top-left", "top", "top-right", "left", "right"]) {
    const box = $("seat-" + pos);
    box.hidden = !used.has(pos);
    if (box.hidden) { box.replaceChildren(); delete box.dataset.seat; }
  }
}

function drawSeat(s, seat) {
  const box = $("seat-" + position(seat, s.seat));
  const info = s.seats[seat];
  const out = s.sitting_out_seats.includes(seat);
  const title = el("div", { class: "seat-name" + (s.turn === seat ? " on-turn" : ""),
    text: `${info.name} (${info.player})${seat === s.dealer ? " · dealer" : ""}${seat === s.declarer ? " · declarer" : ""}` });
  const side = s.teams[info.side];
  const score = el("div", { class: "seat-score",
    text: s.table_size === 3 ? `score ${s.scores[info.side]}` : `${side}${info.side === s.your_side ? " (your side)" : ""} ${s.scores[info.side]}` });
  const calls = s.calls_by_seat[seat];
  const said = el("div", { class: "seat-calls", text: calls.length ? "calls: " + calls.join(", ") : "" });
  const cards = el("div", { class: "backs" });
  if (s.exposed && seat === s.declarer) cards.append(handEl(s.exposed, (c) => cardEl(c, { disabled: true })));
  else for (let i = 0; i < s.hand_sizes[seat] && !out; i++) cards.append(backEl());
  const tricks = el("div", { class: "seat-tricks", text: out ? "sits this hand out" : `tricks ${s.tricks_by_seat[seat]}` });
  box.replaceChildren(title, score, said, cards, tricks);
  box.dataset.seat = String(seat);
  box.classList.toggle("sits-out", out);
}

// The kitty, face down in the middle of the table until someone takes it.
function drawKitty(s) {
  const box = $("kitty-pile");
  box.replaceChildren();
  if (s.phase !== "auction") return;
  const backs = el("span", { class: "backs" });
  for (let i = 0; i < s.kitty_size; i++) backs.append(backEl());
  box.append(el("span", { text: `Kitty (${s.kitty_size} cards) ` }), backs);
}

// Tricks per side (with six players also per seat).
function tricksText(sides, won, bySeat) {
  const text = sides.map((t, i) => `${t} ${won[i]}`).join(", ");
  if (bySeat.length !== 6) return text;
  return text + " [" + bySeat.map((w, seat) => `${seatLabel(seat)} ${w}`).join(", ") + "]";
}

function drawCalls(s) {
  const box = $("calls");
  box.replaceChildren();
  if (s.phase !== "auction" || !s.your_turn) return;
  for (const c of s.legal.calls) {
    box.append(el("button", { type: "button", class: "call" + (c.legal ? "" : " dim"),
      "data-action": String(c.action), text: c.label,
      onclick: () => send("/api/act", { action: c.action }) }));
  }
}

function drawExchange(s) {
  const box = $("exchange");
  box.replaceChildren();
  if (s.phase !== "exchange" || !s.your_turn) { selected.clear(); return; }
  for (const c of [...selected]) if (!s.legal.cards[c]) selected.delete(c);
  const confirm = el("button", { type: "button", id: "confirm-discard",
    text: `Discard ${selected.size} of ${s.discards_left}`,
    onclick: () => { const cards = [...selected]; selected.clear(); send("/api/discard", { cards }); } });
  confirm.disabled = selected.size !== s.discards_left;
  box.append(el("span", { text: "Kitty: " }), ...(s.kitty || []).map((c) => el("span", { class: "kitty-name", text: cardLabel(c) + " " })), confirm);
}

function drawHand(s) {
  const legal = s.your_turn && s.legal && s.legal.cards ? s.legal.cards : null;
  const kitty = new Set(s.kitty || []);
  $("hand").replaceChildren(handEl(s.hand, (c) => {
    const classes = [];
    if (s.phase === "play" || s.phase === "exchange") classes.push(legal && legal[c] ? "legal" : "dim");
    if (selected.has(c)) classes.push("selected");
    if (kitty.has(c)) classes.push("from-kitty");
    const card = cardEl(c, { onclick: () => clickCard(c) });
    card.classList.add(...classes);
    return card;
  }));
}

function clickCard(c) {
  if (!S) return;
  if (S.phase === "exchange" && S.your_turn) {
    if (selected.has(c)) selected.delete(c); else selected.add(c);
    render(S);
    return;
  }
  const suits = S.your_turn && S.legal && S.legal.cards && S.legal.cards[c];
  if (S.phase === "play" && suits && suits.length) return pickSuit(c, suits);
  send("/api/act", { card: c });
}

function pickSuit(card, suits) {
  const picker = $("suit-picker");
  const buttons = $("suit-buttons");
  buttons.replaceChildren();
  for (const suit of ["S", "C", "D", "H"]) {
    const b = el("button", { type: "button", class: "suit " + suit, "data-suit": suit,
      text: `${SYMBOLS[suit]} ${SUIT_NAMES[suit]}`,
      onclick: () => { picker.hidden = true; send("/api/act", { card, suit }); } });
    b.disabled = !suits.includes(suit);
    buttons.append(b);
  }
  picker.hidden = false;
}

function drawResult(s) {
  const box = $("result");
  box.replaceChildren();
  if (!s.result) return;
  box.append(el("p", { class: "result-text", text: s.result }));
  if (s.winner) box.append(el("p", { class: "winner", text: s.winner }));
  else box.append(el("button", { type: "button", id: "next-hand", text: "Next hand",
    onclick: () => send("/api/next") }));
}

function drawLog(s) {
  const log = $("log");
  if (s.event_count < events) { log.replaceChildren(); events = 0; }
  for (const e of s.events) {
    if (e.n <= events) continue;
    log.append(el("li", { text: e.text }));
    events = e.n;
  }
  log.scrollTop = log.scrollHeight;
}

function schedule(s) {
  if (timer) { clearTimeout(timer); timer = null; }
  const playing = s.phase === "auction" || s.phase === "exchange" || s.phase === "play";
  if (playing && !s.your_turn && s.turn >= 0) {
    timer = setTimeout(() => { timer = null; send("/api/advance"); }, s.pace_ms);
  }
}

// ---------------------------------------------------------------- the aids

function drawAids(s) {
  const toggles = $("aid-toggles");
  if (!toggles.children.length) {
    for (const a of AIDS) {
      const box = el("input", { type: "checkbox", id: "toggle-" + a,
        onchange: (e) => send("/api/aids", { name: a, on: e.target.checked }) });
      toggles.append(el("label", {}, box, " " + AID_TITLES[a]));
    }
  }
  for (const a of AIDS) {
    $("toggle-" + a).checked = s.aids[a];
    if (!s.aids[a]) { $("aid-" + a).replaceChildren(); aidKey[a] = null; }
  }
  const key = `${s.hand_no}/${s.event_count}`;
  if (s.aids.counter && (s.phase === "play" || s.your_turn)) fetchAid("counter", key, drawCounter);
  if (s.aids.hint && s.your_turn) fetchAid("hint", key, drawHint);
  else if (!s.your_turn) $("aid-hint").replaceChildren();
  if (s.aids.estimate && s.your_turn) fetchAid("estimate", key, drawEstimates);
  else if (!s.your_turn) $("aid-estimate").replaceChildren();
  drawAnalyse(s);
  drawReveal(s);
}

async function fetchAid(name, key, draw) {
  if (aidKey[name] === key) return;
  aidKey[name] = key;
  $("aid-" + name).replaceChildren(el("p", { class: "busy", text: AID_TITLES[name] + ": working…" }));
  try {
    const data = await call("GET", "/api/aid/" + name);
    if (aidKey[name] === key) draw(data);
  } catch (err) {
    $("aid-" + name).replaceChildren(el("p", { class: "warn", text: err.message }));
  }
}

function actionText(a) { return a.card && !a.names ? cardLabel(a.card) : a.label; }

function pm(mean, se) {
  const m = (mean >= 0 ? "+" : "") + mean.toFixed(0);
  return se === null ? m : `${m} ± ${se.toFixed(0)}`;
}

function drawHint(data) {
  $("aid-hint").replaceChildren(el("p", { class: "hint", "data-action": String(data.action),
    text: `Hint (${data.bot}): ${actionText(data)}` }));
}

function drawEstimates(data) {
  const table = el("table", { class: "estimates" });
  const theirs = S && S.table_size === 3 ? "the others' mean" : "theirs";
  table.append(el("caption", { text: `Expected hand points, your side minus ${theirs} (mc, ${data.n} deals each)` }));
  for (const r of data.rows) {
    table.append(el("tr", { "data-action": String(r.action), "data-mean": String(r.mean),
      "data-se": r.se === null ? "" : String(r.se) },
      el("td", { text: actionText(r) }), el("td", { class: "num", text: pm(r.mean, r.se) })));
  }
  $("aid-estimate").replaceChildren(table);
}

function drawCounter(data) {
  const table = el("table", { class: "counter" });
  table.append(el("caption", { text: "Card counter" }));
  table.append(el("tr", {}, ...["suit", "played", "yours", "out", "shown void"].map((h) => el("th", { text: h }))));
  for (const r of data.rows) {
    table.append(el("tr", { "data-suit": r.suit },
      el("td", { text: SYMBOLS[r.suit] + (r.trumps ? " trumps" : "") }),
      el("td", { text: r.played.map(cardLabel).join(" ") }),
      el("td", { text: r.yours.map(cardLabel).join(" ") || "-" }),
      el("td", { class: "num out", text: String(r.out) }),
      el("td", { text: r.void.join(" ") || "-" })));
  }
  $("aid-counter").replaceChildren(table);
}

function drawAnalyse(s) {
  const box = $("aid-analyse");
  if (!s.aids.analyse || s.phase !== "auction" || !s.your_turn) { box.replaceChildren(); aidKey.analyse = null; return; }
  if (aidKey.analyse === s.event_count) return;
  aidKey.analyse = s.event_count;
  const select = el("select", { id: "analyse-bid" });
  for (const c of s.legal.calls) if (c.legal && c.label !== "pass" && c.label !== "misdeal") select.append(el("option", { value: String(c.action), text: c.label }));
  const out = el("p", { id: "analysis" });
  const go = el("button", { type: "button", id: "analyse-go", text: "Analyse",
    onclick: async () => {
      out.textContent = "working…";
      try {
        const r = await call("POST", "/api/aid/analyse", { bid: Number(select.value) });
        out.textContent = `${r.label} as your contract, in ${r.n} simulated deals: made ${r.made} times ` +
          `(${Math.round(r.p_make * 100)}% ± ${Math.round(r.se_p * 100)}%); expected points ${pm(r.points, r.se)} ` +
          `(your side minus ${s.table_size === 3 ? "the others' mean" : "theirs"} ${pm(r.net, null)}).`;
        out.dataset.made = String(r.made);
      } catch (err) { out.textContent = err.message; }
    } });
  box.replaceChildren(el("h3", { text: "Analyse a bid" }), select, go, out);
}

function drawReveal(s) {
  const box = $("aid-reveal");
  if (!s.reveal) { box.replaceChildren(); return; }
  const items = [el("h3", { text: "All hands as dealt" })];
  s.reveal.hands.forEach((groups, seat) => items.push(el("div", { class: "reveal-row" },
    el("span", { class: "who", text: SEATS[seat] }), handEl(groups, (c) => cardEl(c, { disabled: true })))));
  items.push(el("div", { class: "reveal-row" }, el("span", { class: "who", text: "Kitty" }),
    handEl(s.reveal.kitty, (c) => cardEl(c, { disabled: true }))));
  box.replaceChildren(...items);
}

// ---------------------------------------------------------------- start

$("claim").addEventListener("click", () => send("/api/claim"));
$("suit-cancel").addEventListener("click", () => { $("suit-picker").hidden = true; });
events = 0;
refresh();
