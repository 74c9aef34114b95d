// The game page: draws the snapshot the server sends (only what the player's seat may know),
// sends clicks to the server (which checks every move with the engine), and asks for the
// bots' moves one at a time at the server's pace.  Every POST carries the game's token (from
// the page's <meta name="fh-token">).  The page always polls, so a second tab follows.
"use strict";

const AIDS = ["hint", "estimate", "counter", "analyse", "reveal"];
const AID_TITLES = { hint: "Hint", estimate: "Points estimates", counter: "Card counter",
  analyse: "Analyse a bid", reveal: "Show all hands after the hand" };
const ESTIMATE_ROWS = 5;  // the estimates panel shows the best few; the rest on a click
const POLL_MS = 1000;
let TOKEN = document.querySelector('meta[name="fh-token"]').content;
let S = null;            // the latest snapshot
let events = 0;          // events already in the log
let timer = null;        // the pending bot move
let pollTimer = null;
let selected = new Set(); // discards chosen, before confirming
let aidKey = {};         // the decision each aid was last fetched for
let shownTricks = -1;    // tricks completed when the table was last drawn
let hold = null;         // a completed trick left on the table: {cards, winner, key, timer}
let shownCards = new Set(); // the trick's cards already drawn (only new ones slide in)
let dealtHand = null;    // the hand whose deal was animated

const $ = (id) => document.getElementById(id);

async function call(method, url, body) {
  const options = { method, headers: { "Content-Type": "application/json" } };
  if (method !== "GET") options.headers["X-FH-Token"] = TOKEN;
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(url + (url.includes("?") ? "&" : "?") + "since=" + events, options);
  const data = await response.json();
  if (!response.ok) { const e = new Error(data.error || response.statusText); e.status = response.status; throw e; }
  return data;
}

async function send(url, body) {
  document.body.classList.add("waiting");
  try {
    const data = await call("POST", url, body);
    if (data.stands !== undefined) showMessage(data.message, data.stands ? "ok" : "warn");
    else showMessage("");
    render(data);
  } catch (err) {
    showMessage(err.message, "warn");
    refresh();
  } finally {
    document.body.classList.remove("waiting");
  }
}

function showMessage(text, kind = "") {
  const box = $("message");
  box.textContent = text || "";
  box.className = kind;
}

async function refresh() {
  try { render(await call("GET", "/api/state")); }
  catch (err) {
    if (err.status === 404) { showMessage(""); openStart(true); } else showMessage(err.message, "warn");
  }
}

// Another tab (or a new game) moved the game on: draw it; a new game needs its new token.
async function poll() {
  pollTimer = null;
  try {
    const data = await call("GET", "/api/state");
    if (S && data.game_no !== S.game_no) { location.reload(); return; }
    if (!S || data.event_count !== S.event_count) render(data);
  } catch (err) { /* the server is gone or has no game yet: try again */ }
  pollTimer = setTimeout(poll, POLL_MS);
}

// ---------------------------------------------------------------- drawing the table

function render(s) {
  if (S && s.game_no !== S.game_no) { resetGame(); }
  S = s;
  setTable(s.seat_names, s.short_names);
  const status = $("status");
  status.dataset.phase = s.phase;
  status.dataset.yourTurn = String(s.your_turn);
  status.dataset.turn = String(s.turn);
  status.dataset.events = String(s.event_count);
  status.dataset.tricks = String(s.tricks_played);
  status.dataset.tableSize = String(s.table_size);
  status.dataset.gameNo = String(s.game_no);
  const me = s.seat;
  $("scores").textContent = s.teams.map((t, i) =>
    `${t}${i === s.your_side ? " (you)" : ""} ${s.scores[i]}`).join(" · ") + ` · hand ${s.hand_no}`;
  $("contract").textContent = s.contract_text;
  drawSeats(s);
  noteCompletedTrick(s);
  drawTrick(s);
  drawKitty(s);
  $("needed").textContent = s.needed ? s.needed.text : "";
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

function resetGame() {
  events = 0; aidKey = {}; selected.clear(); shownTricks = -1; shownCards.clear();
  endHold(false); $("log").replaceChildren();
}

function promptText(s) {
  if (s.phase === "hand_over" || s.phase === "game_over") return "";
  if (!s.your_turn) {
    const who = SEATS[s.turn];
    if (s.phase === "auction") return `${who} to call…`;
    if (s.phase === "exchange") return `${who} takes the kitty and discards…`;
    return `${who} to play…`;
  }
  if (s.phase === "auction") return "Your call";
  if (s.phase === "exchange") return `Your exchange: choose ${s.discards_left} cards to discard`;
  return s.trick.length ? "Your play" : "Your lead";
}

// A trick just completed stays on the table, its winner marked, for a pause or until a
// click; the bots wait for it.
function noteCompletedTrick(s) {
  if (shownTricks >= 0 && s.tricks_played > shownTricks && s.last_trick &&
      (s.phase === "play" || s.phase === "hand_over" || s.phase === "game_over")) {
    endHold(false);
    const key = `${s.hand_no}/${s.tricks_played}`;
    hold = { cards: s.last_trick.cards, winner: s.last_trick.winner, key };
    hold.timer = setTimeout(() => endHold(true), s.trick_pause_ms);
  }
  if (s.tricks_played < shownTricks) endHold(false);  // a new hand
  shownTricks = s.tricks_played;
}

function endHold(redraw) {
  if (!hold) return;
  clearTimeout(hold.timer);
  const box = $("trick").firstChild;
  const done = hold;
  hold = null;
  if (redraw && box && !reducedMotion()) {
    // the trick is gathered to its winner, then the table is drawn without it
    box.classList.add("gather", "to-" + position(done.winner, S.seat));
    setTimeout(() => { if (!hold && S) { drawTrick(S); schedule(S); } }, 320);
  } else if (redraw && S) { drawTrick(S); schedule(S); }
}

function reducedMotion() { return window.matchMedia("(prefers-reduced-motion: reduce)").matches; }

function drawTrick(s) {
  const box = $("trick");
  if (hold) {
    const t = trickEl(hold.cards, s.seat, false, []);
    t.classList.add("completed");
    for (const p of t.querySelectorAll(".played")) {
      if (Number(p.dataset.seat) === hold.winner) p.classList.add("winner");
    }
    t.append(el("div", { class: "won-by", text: `${seatName(hold.winner)} wins the trick` }));
    box.replaceChildren(t);
    box.dataset.held = "1";
    return;
  }
  delete box.dataset.held;
  const t = trickEl(s.trick, s.seat, false, s.phase === "play" ? s.sitting_out_seats : []);
  for (const p of t.querySelectorAll(".played:not(.sits-out)")) {
    const key = `${s.hand_no}/${s.tricks_played}/${p.dataset.seat}`;
    if (!shownCards.has(key)) { p.classList.add("arrive", "from-" + position(Number(p.dataset.seat), s.seat)); shownCards.add(key); }
  }
  box.replaceChildren(t);
}

function seatName(seat) { return seat === S.seat ? "You" : SEATS[seat]; }

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
  const count = el("div", { class: "card-count", text: out ? "" : `${s.hand_sizes[seat]} cards` });
  const tricks = el("div", { class: "seat-tricks", text: out ? "sits this hand out" : `tricks ${s.tricks_by_seat[seat]}` });
  box.replaceChildren(title, score, said, cards, count, tricks);
  box.dataset.seat = String(seat);
  box.classList.toggle("sits-out", out);
  box.classList.toggle("on-turn", s.turn === seat && (s.phase === "auction" || s.phase === "exchange" || s.phase === "play"));
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
      onclick: (e) => { e.currentTarget.classList.add("pending"); send("/api/act", { action: c.action }); } }));
  }
}

function drawExchange(s) {
  const box = $("exchange");
  box.replaceChildren();
  if (s.phase !== "exchange" || !s.your_turn) { selected.clear(); return; }
  for (const c of [...selected]) if (!s.legal.cards[c]) selected.delete(c);
  const confirm = el("button", { type: "button", id: "confirm-discard",
    text: `Discard ${selected.size} of ${s.discards_left}`,
    onclick: (e) => { e.currentTarget.classList.add("pending"); const cards = [...selected]; selected.clear(); send("/api/discard", { cards }); } });
  confirm.disabled = selected.size !== s.discards_left;
  box.append(el("span", { text: "Kitty: " }), ...(s.kitty || []).map((c) => el("span", { class: "kitty-name", text: cardLabel(c) + " " })), confirm);
}

function drawHand(s) {
  const legal = s.your_turn && s.legal && s.legal.cards ? s.legal.cards : null;
  const kitty = new Set(s.kitty || []);
  const deal = s.phase === "auction" && s.calls_by_seat.every((c) => c.length === 0) && dealtHand !== `${s.game_no}/${s.hand_no}`;
  if (deal) dealtHand = `${s.game_no}/${s.hand_no}`;
  let i = 0;
  const hand = handEl(s.hand, (c) => {
    const classes = [];
    if (s.phase === "play" || s.phase === "exchange") classes.push(legal && legal[c] ? "legal" : "dim");
    if (selected.has(c)) classes.push("selected");
    if (kitty.has(c)) classes.push("from-kitty");
    const card = cardEl(c, { onclick: (e) => clickCard(c, e.currentTarget) });
    card.classList.add(...classes);
    if (deal) { card.classList.add("dealt"); card.style.animationDelay = `${40 * i++}ms`; }
    return card;
  });
  hand.dataset.count = String(s.hand.reduce((n, g) => n + g.cards.length, 0));
  $("hand").replaceChildren(hand);
}

function clickCard(c, node) {
  if (!S) return;
  if (hold) endHold(true);
  if (S.phase === "exchange" && S.your_turn) {
    if (selected.has(c)) selected.delete(c); else selected.add(c);
    render(S);
    return;
  }
  const suits = S.your_turn && S.legal && S.legal.cards && S.legal.cards[c];
  if (S.phase === "play" && suits && suits.length) return pickSuit(c, suits);
  if (node) node.classList.add("pending");
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
  for (const d of s.discards || []) {
    const who = d.seat === s.seat ? "Your discards" : `${d.name}'s discards`;
    box.append(el("div", { class: "discards", "data-seat": String(d.seat) },
      el("span", { class: "who", text: who + ": " }),
      ...d.cards.map((c) => cardEl(c, { disabled: true }))));
  }
  if (s.winner) {
    box.append(el("p", { class: "winner", text: s.winner }));
    box.append(el("button", { type: "button", id: "new-game", text: "New game", onclick: () => openStart(false) }));
  } else box.append(el("button", { type: "button", id: "next-hand", text: "Next hand",
    onclick: (e) => { e.currentTarget.classList.add("pending"); send("/api/next"); } }));
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
  if (hold) return;  // the bots wait while a completed trick is shown
  const playing = s.phase === "auction" || s.phase === "exchange" || s.phase === "play";
  if (playing && !s.your_turn && s.turn >= 0) {
    const after = s.event_count;
    timer = setTimeout(() => { timer = null; send("/api/advance", { after }); }, s.pace_ms);
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
  const key = `${s.game_no}/${s.hand_no}/${s.event_count}`;
  if (s.counter) drawCounter(s.counter);
  if (s.aids.estimate && s.your_turn) fetchAid("estimate", key, drawEstimates);
  else if (!s.your_turn) $("aid-estimate").replaceChildren();
  if (s.aids.hint && s.your_turn) fetchAid("hint", key, drawHint);
  else if (!s.your_turn) $("aid-hint").replaceChildren();
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

function signed(x) { return (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(0); }

function pm(mean, se) { return se === null ? signed(mean) : `${signed(mean)} ± ${se.toFixed(0)}`; }

function drawHint(data) {
  const how = data.from === "estimate" ? `best of the estimates, ${signed(data.mean)} over ${data.n} deals` : data.bot;
  $("aid-hint").replaceChildren(el("p", { class: "hint", "data-action": String(data.action),
    text: `Hint: ${actionText(data)} (${how})` }));
  for (const tr of document.querySelectorAll("#aid-estimate tr[data-action]")) {
    tr.classList.toggle("hinted", tr.dataset.action === String(data.action));
  }
}

function drawEstimates(data) {
  const table = el("table", { class: "estimates" });
  const theirs = S && S.table_size === 3 ? "the others' mean" : "theirs";
  table.append(el("caption", { text: `Expected points this hand, your side minus ${theirs} (${data.n} simulated deals)` }));
  data.rows.forEach((r, i) => {
    const tr = el("tr", { "data-action": String(r.action), "data-mean": String(r.mean),
      "data-se": r.se === null ? "" : String(r.se), class: i >= ESTIMATE_ROWS ? "more" : "" },
      el("td", { text: actionText(r) }), el("td", { class: "num", text: pm(r.mean, r.se) }));
    if (i === 0) tr.classList.add("hinted");
    table.append(tr);
  });
  const items = [table];
  if (data.rows.length > ESTIMATE_ROWS) {
    table.classList.add("compact");
    items.push(el("button", { type: "button", class: "plain", id: "estimates-more",
      text: `all ${data.rows.length}`, onclick: (e) => {
        table.classList.toggle("compact");
        e.currentTarget.textContent = table.classList.contains("compact") ? `all ${data.rows.length}` : "fewer";
      } }));
  }
  $("aid-estimate").replaceChildren(...items);
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

function analysisText(r, three) {
  const pct = Math.round(r.p_make * 100);
  const theirs = three ? "the others' mean" : "the other side";
  return `${r.label} as your contract, in ${r.n} simulated deals: made ${r.made} times (${pct}%, ± ${Math.round(r.se_p * 100)}). ` +
    `Your side would score ${pm(r.points, r.se)} points on average; that is ${signed(r.net)} against ${theirs}.`;
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
        out.textContent = analysisText(r, s.table_size === 3);
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
  for (const d of s.reveal.discards) items.push(el("div", { class: "reveal-row" },
    el("span", { class: "who", text: SEATS[d.seat] + " discarded" }), handEl(d.cards, (c) => cardEl(c, { disabled: true }))));
  box.replaceChildren(...items);
}

// ---------------------------------------------------------------- the start screen

let setupData = null;
let rulesText = null;

async function openStart(noGame) {
  const box = $("start");
  box.hidden = false;
  box.dataset.noGame = noGame ? "1" : "";
  $("start-cancel").hidden = noGame;
  $("start-error").textContent = "";
  try { setupData = await call("GET", "/api/setup"); } catch (err) { $("start-error").textContent = err.message; return; }
  const d = setupData;
  const cur = d.current || {};
  const preset = $("start-preset");
  preset.replaceChildren(...d.presets.map((p) => el("option", { value: p.name,
    text: `${p.name}${p.players !== 4 ? ` (${p.players} players)` : ""}` })));
  preset.value = d.presets.some((p) => p.name === cur.preset) ? cur.preset : d.presets[0].name;
  const levels = $("start-levels");
  levels.querySelectorAll("label").forEach((n) => n.remove());
  for (const lv of d.levels) {
    const input = el("input", { type: "radio", name: "level", value: lv.key, id: "level-" + lv.key });
    input.checked = lv.key === (cur.level && cur.level !== "custom" ? cur.level : "normal");
    levels.append(el("label", { title: lv.about }, input,
      ` ${lv.title}: ${lv.bot} (rating ${lv.rating > 0 ? "+" : ""}${lv.rating})`));
  }
  const partner = $("start-partner");
  partner.replaceChildren(el("option", { value: "", text: "same as the opponents" }),
    ...d.levels.map((lv) => el("option", { value: lv.key, text: `${lv.title}: ${lv.bot}` })));
  partner.value = cur.partner && cur.partner !== cur.level ? cur.partner : "";
  presetChanged();
  drawStats(d);
}

function presetChanged() {
  const p = setupData.presets.find((x) => x.name === $("start-preset").value);
  $("start-target").value = String(p.target);
  $("start-partner").disabled = p.players === 3;
}

function drawStats(d) {
  const table = $("stats");
  table.replaceChildren(el("tr", {}, ...["level", "games", "won", "contracts made", "points a deal", "nullo won/lost"].map((h) => el("th", { text: h }))));
  for (const lv of [...d.levels, { key: "custom", title: "Custom bots" }]) {
    const st = d.stats[lv.key];
    if (!st) continue;
    table.append(el("tr", { "data-level": lv.key },
      el("td", { text: lv.title }), el("td", { class: "num played", text: String(st.played) }),
      el("td", { class: "num won", text: String(st.won) }),
      el("td", { class: "num made", text: `${st.made} of ${st.bid}` }),
      el("td", { class: "num ppd", text: st.points_per_deal === null ? "-" : signed(st.points_per_deal) }),
      el("td", { class: "num nullo", text: `${st.nullo_made}/${st.nullo_failed}` })));
  }
  if (table.rows.length === 1) table.append(el("tr", {}, el("td", { colSpan: 6, text: "No games yet." })));
  $("stats-file").textContent = d.stats_file ? "Kept in " + d.stats_file : "Statistics are not kept.";
}

async function startGame(e) {
  e.preventDefault();
  if (S && !S.game_over && !$("start").dataset.noGame && !confirm("Leave the game in progress?")) return;
  const level = document.querySelector('#start-levels input[name="level"]:checked');
  const body = { level: level ? level.value : "normal", partner: $("start-partner").value || null,
    target: Number($("start-target").value) };
  if (rulesText) body.rules_toml = rulesText; else body.preset = $("start-preset").value;
  $("start-go").disabled = true;
  $("start-error").textContent = "Dealing…";
  try {
    const data = await call("POST", "/api/new", body);
    TOKEN = data.token;
    resetGame();
    S = null;
    $("start").hidden = true;
    showMessage((data.notes || []).join(" "), data.notes && data.notes.length ? "warn" : "");
    render(data);
  } catch (err) { $("start-error").textContent = err.message; }
  finally { $("start-go").disabled = false; }
}

// ---------------------------------------------------------------- start

$("claim").addEventListener("click", (e) => { e.currentTarget.classList.add("pending"); send("/api/claim"); });
$("suit-cancel").addEventListener("click", () => { $("suit-picker").hidden = true; });
$("table").addEventListener("click", (e) => { if (hold && !e.target.closest("#hand")) endHold(true); });
$("menu-new").addEventListener("click", () => openStart(false));
$("start-cancel").addEventListener("click", () => { $("start").hidden = true; });
$("start-form").addEventListener("submit", startGame);
$("start-preset").addEventListener("change", () => { rulesText = null; $("start-rules-file").value = ""; presetChanged(); });
$("start-rules-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  rulesText = file ? await file.text() : null;
});
if (window.matchMedia("(max-width: 700px)").matches) {
  for (const d of document.querySelectorAll("#side details")) d.open = false;
}
events = 0;
refresh().then(() => { pollTimer = setTimeout(poll, POLL_MS); });
