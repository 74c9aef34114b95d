// Drawing cards and seats: shared by the game page (app.js) and the replay page (replay.js).
// A card is its name from the server ("10H", "JK", "BJ", "RJ"); the page draws it with HTML
// and CSS alone (no images, nothing fetched).
"use strict";

const SYMBOLS = { S: "♠", C: "♣", D: "♦", H: "♥", J: "★" };
const SUIT_NAMES = { S: "spades", C: "clubs", D: "diamonds", H: "hearts", J: "jokers" };
// The table: three, four or six seats, named by the server (setTable), seat 0 first.
let SEATS = ["North", "East", "South", "West"];
let SHORTS = ["N", "E", "S", "W"];
// Where each seat sits on the screen, counted clockwise from the one at the bottom.
const POSITIONS = {
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  6: ["bottom", "left", "top-left", "top", "top-right", "right"],
};

function setTable(names, shorts) {
  if (names && POSITIONS[names.length]) { SEATS = names; SHORTS = shorts || names; }
}

// A seat's name where room is short: the short name at a table of six (NE, SW), else the name.
function seatLabel(seat) { return SEATS.length === 6 ? SHORTS[seat] : SEATS[seat]; }

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else if (k === "onclick") node.addEventListener("click", v);
    else node[k] = v;
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function cardParts(name) {
  if (name === "JK" || name === "BJ" || name === "RJ") return { rank: name, suit: "J" };
  return { rank: name.slice(0, -1), suit: name.slice(-1) };
}

// One card face: rank and suit symbol in two corners and a big symbol in the middle.
function cardEl(name, extra = {}) {
  const { rank, suit } = cardParts(name);
  const colour = suit === "D" || suit === "H" || name === "RJ" ? "red" : "black";
  const label = suit === "J" ? (name === "JK" ? "Joker" : name === "BJ" ? "Black joker" : "Red joker")
    : `${rank}${SYMBOLS[suit]}`;
  const node = el("button", { class: `card ${colour} suit-${suit}`, type: "button",
    "data-card": name, title: label, ...extra },
    el("span", { class: "corner", text: suit === "J" ? "JK" : rank + SYMBOLS[suit] }),
    el("span", { class: "pip", text: suit === "J" ? "★" : SYMBOLS[suit] }));
  node.setAttribute("aria-label", label);
  return node;
}

function cardLabel(name) {
  const { rank, suit } = cardParts(name);
  return suit === "J" ? name : rank + SYMBOLS[suit];
}

function backEl() { return el("span", { class: "card back" }); }

// A hand as groups from the server ({suit, trumps, cards}), drawn in that order.
function handEl(groups, makeCard = (c) => cardEl(c)) {
  const box = el("div", { class: "hand" });
  for (const g of groups) {
    const group = el("span", { class: "group" + (g.trumps ? " trumps" : ""),
      title: g.trumps ? "trumps" : SUIT_NAMES[g.suit] });
    for (const c of g.cards) group.append(makeCard(c));
    box.append(group);
  }
  return box;
}

// The auction as a grid, one column per seat from the dealer's left.
function auctionEl(table, auction, me) {
  table.replaceChildren();
  const head = el("tr");
  for (const s of auction.columns) {
    head.append(el("th", { text: seatLabel(s) + (s === me ? " (you)" : ""), title: SEATS[s] }));
  }
  table.append(head);
  for (const row of auction.rows) {
    const tr = el("tr");
    for (const call of row) tr.append(el("td", { text: call }));
    table.append(tr);
  }
}

// A trick's cards, each where its seat sits (or in a row); the seats in `out` sit this hand
// out and are shown so in the trick in progress.
function trickEl(cards, me, row = false, out = []) {
  const box = el("div", { class: row ? "trick-row" : "trick-cards" });
  box.dataset.size = String(SEATS.length);
  for (const { seat, card } of cards) {
    box.append(el("div", { class: `played pos-${position(seat, me)}`, "data-seat": String(seat) },
      cardEl(card, { disabled: true }), el("span", { class: "who", text: SEATS[seat] })));
  }
  if (!row) {
    for (const seat of out) {
      box.append(el("div", { class: `played sits-out pos-${position(seat, me)}`, "data-seat": String(seat) },
        el("span", { class: "card gap" }), el("span", { class: "who", text: SEATS[seat] + ": sits out" })));
    }
  }
  return box;
}

// Where a seat sits on the screen when `me` sits at the bottom (me < 0: seat 0 at the bottom).
function position(seat, me) {
  const n = SEATS.length;
  return POSITIONS[n][(seat - Math.max(me, 0) + n) % n];
}
