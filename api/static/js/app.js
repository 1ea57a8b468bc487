// The page's router: / the lobby, /join/{id}#{invite} join then play, /play/{id}, /watch/{id},
// /players/{name} a player's page, /leaderboard/{ruleset}/{scenario} a battle's leaderboard,
// /tournaments the tournaments, /tournaments/{id} one of them.

import { joinGame, showLobby } from "./lobby.js";
import { showGame } from "./game.js";
import { showLeaderboard, showPlayer } from "./standings.js";
import { showTournament, showTournaments } from "./tournaments.js";

const root = document.getElementById("app");

async function route() {
  const parts = location.pathname.split("/").filter(Boolean);
  try {
    if (parts[0] === "join" && parts[1]) {
      const invite = decodeURIComponent(location.hash.slice(1));
      if (await joinGame(root, parts[1], invite)) await showGame(root, parts[1]);
    } else if (parts[0] === "play" && parts[1]) {
      await showGame(root, parts[1]);
    } else if (parts[0] === "watch" && parts[1]) {
      await showGame(root, parts[1], { watch: true });
    } else if (parts[0] === "players" && parts[1]) {
      await showPlayer(root, decodeURIComponent(parts[1]));
    } else if (parts[0] === "tournaments" && parts[1]) {
      await showTournament(root, decodeURIComponent(parts[1]));
    } else if (parts[0] === "tournaments") {
      await showTournaments(root);
    } else if (parts[0] === "leaderboard" && parts[2]) {
      await showLeaderboard(root, decodeURIComponent(parts[1]), decodeURIComponent(parts[2]));
    } else {
      await showLobby(root);
    }
  } catch (e) {
    root.textContent = `Something went wrong: ${e.message}`;
    console.error(e);
  }
  document.body.dataset.ready = "1";
}

route();
