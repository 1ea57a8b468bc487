"""Live games in this process, split by job: each game followed once, each fanned out to its sockets.

- api/live/hub.py: `LiveGames`, the live games of this process, opened on first use;
- api/live/room.py: `LiveGame`, one game's room (its history, its sockets attaching and leaving),
  with the jobs below as its mixins;
- api/live/sockets.py: `Connection`, one websocket, and the frames written to it;
- api/live/following.py: following the log through the tail, folding and fanning out;
- api/live/acting.py: acting and appending with retries;
- api/live/spectators.py: the spectator delay and the chat withheld from spectators;
- api/live/views.py: the `view` messages, the record beside the board, snapshots;
- api/live/choices.py: offering the choices, a unit's reach, an attack's odds;
- api/live/written.py: Road to Richmond's secret write-down (17.62);
- api/live/index.py: the game index and the snapshots kept after an append.
"""
