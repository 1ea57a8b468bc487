// Reporting a chat line (docs/PROTOCOL.md "Moderation"): a signed-in player (or spectator) gets a
// small "report" link beside each line of the record he did not say himself; it asks a reason and
// sends POST /api/games/{id}/reports with the line's version, for the admins' list.
// Methods of the game page (GameView, game.js), mixed into it there: `this` is the page.

import { h, sendJSON } from "./api.js";

export const ChatReport = {
  /** The "report" link of the record's line `version` said by `seat`, or null when not offered. */
  reportLink(version, kind, seat) {
    if (kind !== "chat" || !this.me || (this.seat && seat === this.seat)) return null;
    return h("button", { type: "button", class: "link small report-chat", "data-version": String(version), title: "Report this line to the admins",
      onclick: () => this.reportDialog(version) }, "report");
  },

  reportDialog(version) {
    const line = this.record.find(([v]) => v === version);
    const reason = h("input", { type: "text", id: "report-reason", maxlength: "500", required: true, "aria-label": "Reason", placeholder: "what is wrong with it" });
    const said = h("p", { class: "error", id: "report-error", role: "alert" });
    const send = async () => {
      const why = reason.value.trim();
      if (!why) { said.textContent = "Say why you report it (1 to 500 characters)."; return; }
      try {
        const r = await sendJSON("POST", `/api/games/${encodeURIComponent(this.gameId)}/reports`, { version, reason: why });
        this.closeDialog();
        this.toast(r.duplicate ? "You had reported this line already." : "Reported: an admin will read it.", "info");
      } catch (err) {
        said.textContent = err.message;
      }
    };
    this.dialog(`report:${version}`, h("h3", {}, "Report this chat line"),
      h("blockquote", { id: "report-line" }, line ? line[3] : `version ${version}`),
      h("label", { class: "field" }, h("span", {}, "Reason"), reason), said,
      h("div", { class: "actions" },
        h("button", { class: "primary", id: "report-send", onclick: send }, "Report"),
        h("button", { onclick: () => this.closeDialog() }, "Cancel")));
    reason.focus();
  },
};
