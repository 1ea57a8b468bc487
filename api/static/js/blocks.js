// Blocking a player (docs/PROTOCOL.md "Moderation"): on his page, a signed-in player may block him
// (POST /api/me/blocks/{name}) or lift the block (DELETE). Between two players of whom one blocks
// the other there is no challenge either way, no acceptance of the other's seek, and neither sees
// the other's seeks; games already begun go on.

import { getJSON, h, sendJSON } from "./api.js";

/** The block control for the player `name` as `me` sees him (null: not signed in, or himself). */
export async function blockControl(me, name) {
  if (!me || me.name.toLowerCase() === name.toLowerCase()) return null;
  const { blocked } = await getJSON("/api/me/blocks");
  const box = h("div", { class: "block-control", id: "player-block-control" });
  let on = blocked.some((n) => n.toLowerCase() === name.toLowerCase());
  const show = (said = "") => {
    box.replaceChildren(
      h("button", { type: "button", id: "player-block", class: on ? "" : "danger", "aria-pressed": on ? "true" : "false", onclick: toggle }, on ? `Unblock ${name}` : `Block ${name}`),
      h("p", { class: "muted", id: "player-block-said", role: "status" }, said || (on
        ? `You block ${name}: no challenge either way, you do not see each other's seeks. Games begun go on.`
        : `Blocking ${name} stops challenges between you and hides your seeks from each other.`)));
  };
  async function toggle() {
    try {
      if (on) await sendJSON("DELETE", `/api/me/blocks/${encodeURIComponent(name)}`);
      else await sendJSON("POST", `/api/me/blocks/${encodeURIComponent(name)}`);
      on = !on;
      show();
    } catch (err) {
      show(err.message);
    }
  }
  show();
  return box;
}
